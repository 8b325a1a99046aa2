import { CARDINAL_WORDS, fold, MONTHS, SCALE_WORDS, stem, TENS_WORDS } from "../../language";

/**
 * What a sentence states, read token by token: numbers (digits or words), years and dates, each
 * with where it stands, so a typed field takes a value only from the words around it ("11
 * presidents", not "90 percent of Americans" for a count of presidents).
 */
export interface Token {
  /** Lower-cased, accent-folded word, or the number's digits as written. */
  word: string;
  stem: string;
  /** The value of a number token ("1,200" 1200, "forty-four" 44, "2.5 million" 2500000). */
  number?: number;
  /** Written with digits only (no separators, no decimals): a year can only be such a token. */
  plainDigits?: boolean;
}

const SMALL = CARDINAL_WORDS;
const TENS = TENS_WORDS;
const SCALES = SCALE_WORDS;

/** "forty-four" 44, "eleven" 11; undefined for any other word. */
function numberWord(word: string): number | undefined {
  if (word in SMALL) return SMALL[word];
  if (word in TENS) return TENS[word];
  const [tens, unit] = word.split("-");
  if (tens && unit && tens in TENS && unit in SMALL && SMALL[unit]! < 10) return TENS[tens]! + SMALL[unit]!;
  return undefined;
}

/** A number written with digits (thousands separators and decimals allowed) or a word; letters glued to it ("19th", "1860s") make it no number. */
const TOKEN = /(?<![\p{L}\p{N}.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\p{L}\p{N}])|(?<![\p{L}\p{N}.,])\d+(?:\.\d+)?(?![\p{L}\p{N}])|\p{L}+(?:[-'’]\p{L}+)*|%/gu;

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const match of fold(text).toLowerCase().matchAll(TOKEN)) {
    const raw = match[0];
    if (/^\d/.test(raw)) {
      out.push({ word: raw, stem: raw, number: Number(raw.replace(/,/g, "")), plainDigits: /^\d+$/.test(raw) });
      continue;
    }
    const word = raw.replace(/['’]s$/, "").replace(/['’]/g, "");
    const value = numberWord(word);
    out.push(value === undefined ? { word, stem: stem(word) } : { word, stem: word, number: value });
  }
  // "2.5 million", "four hundred": the scale word multiplies the number before it.
  for (let i = 0; i + 1 < out.length; i++) {
    const scale = SCALES[out[i + 1]!.word];
    if (out[i]!.number !== undefined && scale !== undefined) {
      out[i] = { ...out[i]!, number: out[i]!.number! * scale, plainDigits: false };
      out.splice(i + 1, 1);
    }
  }
  return out;
}

const MONTH_WORDS = new Set(MONTHS.toLowerCase().split("|"));
const BEFORE_SHORT_YEAR = new Set(["in", "since", "until", "circa", "c", "year", "about", "around"]);
const AFTER_SHORT_YEAR = new Set(["ad", "bc", "bce", "ce"]);

/**
 * Whether the number at `i` is a year: four digits from 1000 to 2100, or three digits that the
 * words around them mark as a year ("in 800", "410 AD"). A count of 1,200 or 3.5 is never one.
 */
export function isYearAt(tokens: Token[], i: number): boolean {
  const token = tokens[i]!;
  if (!token.plainDigits || token.number === undefined) return false;
  const next = tokens[i + 1]?.word;
  if (next === "%" || next === "percent") return false;
  if (token.word.length === 4) return token.number >= 1000 && token.number <= 2100;
  if (token.word.length === 3) return BEFORE_SHORT_YEAR.has(tokens[i - 1]?.word ?? "") || AFTER_SHORT_YEAR.has(next ?? "");
  return false;
}

/** "April 23, 1928": the 23 is a day of the month, not a quantity. */
export function isDayOfMonthAt(tokens: Token[], i: number): boolean {
  return MONTH_WORDS.has(tokens[i - 1]?.word ?? "") || (MONTH_WORDS.has(tokens[i + 1]?.word ?? "") && (tokens[i]!.number ?? 0) <= 31);
}

// ---------- dates ----------

const MONTH_LIST = MONTHS.split("|");

function iso(year: string, month: number, day: string): string {
  return `${year}-${String(month).padStart(2, "0")}-${day.padStart(2, "0")}`;
}

/**
 * The full dates a text states, as ISO dates: "April 23, 1928", "23 April 1928", "1928-04-23".
 * A bare year or a month and year is not a date: completing it would invent the day.
 */
export function datesIn(text: string): { iso: string; index: number }[] {
  const out: { iso: string; index: number }[] = [];
  for (const match of text.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g)) out.push({ iso: match[0], index: match.index });
  for (const match of text.matchAll(new RegExp(`\\b(${MONTHS}) (\\d{1,2}),? (\\d{4})\\b`, "g"))) {
    out.push({ iso: iso(match[3]!, MONTH_LIST.indexOf(match[1]!) + 1, match[2]!), index: match.index });
  }
  for (const match of text.matchAll(new RegExp(`\\b(\\d{1,2}) (${MONTHS}),? (\\d{4})\\b`, "g"))) {
    out.push({ iso: iso(match[3]!, MONTH_LIST.indexOf(match[2]!) + 1, match[1]!), index: match.index });
  }
  return out.filter((date) => !Number.isNaN(Date.parse(date.iso))).sort((a, b) => a.index - b.index);
}

export type LifeEvent = "birth" | "death";

/** A field about being born or dying: encyclopedias state these dates in a fixed form. */
export function lifeEventOf(fieldWords: string): LifeEvent | null {
  if (/\b(born|birth\w*)/i.test(fieldWords)) return "birth";
  if (/\b(died|death|dead)\b/i.test(fieldWords)) return "death";
  return null;
}

/**
 * The birth or death date as encyclopedias write it after a name: "(April 23, 1928 – February
 * 10, 2014)", "(born 16 July 1966)", "born July 16, 1966". Returns the date as written.
 */
export function lifeDateIn(text: string, which: LifeEvent): string | undefined {
  const born = /\(\s*born\s+([^;)]*?\d{4})/i.exec(text) ?? /\bborn\s+(?:on\s+|in\s+)?((?:[A-Z][a-z]+ \d{1,2}, |\d{1,2} [A-Z][a-z]+ )?\d{4})/.exec(text);
  const span = /\(([^()]*?\d{4})\s*[–—-]\s*([^()]*?\d{4})\)/.exec(text);
  if (which === "birth") return born?.[1] ?? span?.[1];
  return span?.[2];
}

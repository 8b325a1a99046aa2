/** Text primitives shared by query analysis, ranking and synthesis. */

import { fold, STOPWORDS, words } from "../../../lib/words";

/** Stopwords, accent folding and word splitting (one implementation, in src/lib: the search providers split words too). */
export { fold, STOPWORDS, words } from "../../../lib/words";

/** Question words and verbs that say what is asked, not what about: dropped from search terms. */
export const QUESTION_WORDS = new Set(
  (
    "who whom whose what which when where why how many much name named known called did does do is are was were " +
    // Framing verbs: "how did X describe Y" asks about Y; sentences using the verb are not answers.
    "describe describ explain characterize characteriz discuss say said mention talk"
  ).split(" "),
);

/**
 * A light English stemmer (plural and common verb endings): enough for "tariffs" ~ "tariff",
 * "portrayed" ~ "portray" without the surprises of aggressive stemming on names.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us") && !word.endsWith("is")) word = word.slice(0, -1);
  if (word.endsWith("ing") && word.length > 5) return word.slice(0, -3);
  if (word.endsWith("ed") && word.length > 4) return word.slice(0, -2);
  return word;
}

/** Does a text say a phrase: its words, whole and in order ("the population of the United States" says "United States")? */
export function saysPhrase(text: string, phrase: string): boolean {
  const key = words(phrase).join(" ");
  return key.length > 0 && ` ${words(text).join(" ")} `.includes(` ${key} `);
}

/** Content terms of a text: stemmed words without stopwords. */
export function terms(text: string): string[] {
  return contentTerms(words(text));
}

/** The content terms among words already split by `words`. */
export function contentTerms(tokens: string[]): string[] {
  const out: string[] = [];
  for (const word of tokens) {
    const term = contentTerm(word);
    if (term !== null) out.push(term);
  }
  return out;
}

/** One word's content term: its stem, or null for a stopword. */
export function contentTerm(word: string): string | null {
  return STOPWORDS.has(word) ? null : stem(word);
}

/** Abbreviations after which a period does not end a sentence ("Ken St. Andre", "(c. 1580", "Martin Luther King Jr. was"). */
const ABBREVIATIONS = new Set(
  (
    "mr mrs ms messrs mme mlle dr st ste jr sr gen col lt no vs inc co ltd mt ft rev prof sen rep gov pres hon capt sgt maj adm cmdr fr br " +
    "c ca approx est b d fl r jan feb mar apr jun jul aug sep sept oct nov dec op vol pp fig e.g i.e u.s u.k ph.d"
  ).split(" "),
);

/** True when a word ending in "." is an abbreviation or an initial, not a sentence end. */
export function isAbbreviation(word: string): boolean {
  const bare = withoutOpeningMarks(word.endsWith(".") ? word.slice(0, -1) : word);
  // Each pattern is tried only where it can match (it runs at nearly every full stop of a page).
  if (bare.length <= 2 && /^\p{Lu}$/u.test(bare)) return true; // an initial: "J. R. R. Tolkien"
  if (bare.includes(".") && /^(?:\p{L}\.){1,}\p{L}$/u.test(bare)) return true; // "U.S", "e.g"
  return ABBREVIATIONS.has(bare.toLowerCase());
}

/** Brackets and quotes opening a word ("(c", "“Mr"), as `/^[("'“‘[]+/` strips them. */
const OPENING_MARKS = "(\"'“‘[";

function withoutOpeningMarks(word: string): string {
  let at = 0;
  while (at < word.length && OPENING_MARKS.includes(word[at]!)) at++;
  return at === 0 ? word : word.slice(at);
}

/** Each word's first letter in capitals ("new zealand" -> "New Zealand"). */
export function titleCase(text: string): string {
  return text.replace(/\b\p{L}/gu, (letter) => letter.toUpperCase());
}

/** A name without its possessive ending: "JFK's" and "Reagans'" are JFK and Reagans. */
export function withoutPossessive(name: string): string {
  return name.replace(/['’]s?$/, "");
}

/** A sentence with its span in the original text (end exclusive), so a claim can point at its exact source. */
export interface SentenceSpan {
  /** The sentence with its whitespace collapsed. */
  text: string;
  start: number;
  end: number;
}

/** A Markdown heading line ("# Title"): the document's structure, not a statement. */
const MARKDOWN_HEADING = /^#{1,6}\s/;
/** A Markdown list marker ("- ", "* ", "+ ", "1. ") before an item's sentence. */
const MARKDOWN_ITEM = /^(?:[-*+]|\d{1,3}[.)])\s+/;

/**
 * Splits prose into sentences with their offsets in `text`, keeping abbreviations ("U.S.",
 * "Dr.", "c.", initials like "O.") and decimals intact. A line break before a capital is a
 * boundary too: pages put headings and list items on lines of their own. Customers' Markdown
 * documents too: a line starting a heading or a list item is a boundary, a heading is no
 * sentence, and an item's marker is not part of its sentence.
 */
export function sentenceSpans(text: string): SentenceSpan[] {
  const out: SentenceSpan[] = [];
  // A full stop glued to the next sentence ("hire American.Tonight I am also calling", as some
  // transcripts lost the space) ends a sentence too, after a lower-case word and before a
  // capitalised one: "Ph.D", "U.S.A" and "3.5" are not read so.
  const boundary =
    /([.!?]["”’)\]]*)(?:(\s+)(?=["“([]?[\p{Lu}\p{N}])|(?<=\p{Ll}\p{Ll}[.!?])(?=\p{Lu}\p{Ll}))|(\s*\n\s*)(?=["“([]?[\p{Lu}\p{N}]|#{1,6}\s|[-*+]\s)/gu;
  let start = 0;
  const push = (from: number, to: number) => {
    const raw = text.slice(from, to);
    const bare = raw.trimStart();
    if (MARKDOWN_HEADING.test(bare)) return;
    const marker = MARKDOWN_ITEM.exec(bare)?.[0].length ?? 0;
    const lead = raw.length - bare.length + marker;
    const trimmed = bare.trimEnd().slice(marker);
    if (trimmed) out.push({ text: collapseSpaces(trimmed), start: from + lead, end: from + lead + trimmed.length });
  };
  for (const match of text.matchAll(boundary)) {
    const index = match.index ?? 0;
    if (match[1] !== undefined) {
      const end = index + match[1].length;
      // "Mr.", "St.", "U.S.", "c.", single initials: not the end of a sentence.
      if (/^[^.!?]*\.$/.test(match[1]) && isAbbreviation(lastWordBefore(text, start, end))) continue;
      // "1. Dives last a minute.": a numbered list item's marker, not a sentence of its own.
      if (isNumberMarker(text, start, end, match[1])) continue;
      push(start, end);
      start = end;
    } else {
      push(start, index);
      start = index;
    }
  }
  push(start, text.length);
  return out;
}

/** Whitespace as `\s` matches it (all of it in the Basic Multilingual Plane, so one UTF-16 unit). */
const SPACE = /\s/;

/** Whether one UTF-16 unit is whitespace as `\s` reads it; printable ASCII answers without the pattern. */
function isSpaceAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code > 32 && code < 127) return false;
  return SPACE.test(text[at]!);
}

/**
 * The last run of non-space characters of `text[from, to)` ("" when it ends in space): what
 * `/(\S+)$/` finds in that slice, read backwards in place instead of copying and matching the
 * whole sentence at every candidate boundary.
 */
function lastWordBefore(text: string, from: number, to: number): string {
  let at = to;
  while (at > from && !isSpaceAt(text, at - 1)) at--;
  return text.slice(at, to);
}

/**
 * Whether `text[from, to)` is a numbered list item's marker ("1."): `/^\s*\d{1,3}\.$/`, tested
 * only where it can hold (the boundary is a bare "." after a digit), so most sentences are not copied.
 */
function isNumberMarker(text: string, from: number, to: number, stop: string): boolean {
  if (stop !== "." || !/\d/.test(text[to - 2] ?? "")) return false;
  return /^\s*\d{1,3}\.$/.test(text.slice(from, to));
}

/** Whitespace other than a plain space. */
const NOT_A_SPACE = /[^\S ]/;

/** Runs of whitespace as one space; most sentences have only single spaces and are returned as they are. */
function collapseSpaces(text: string): string {
  return NOT_A_SPACE.test(text) || text.includes("  ") ? text.replace(/\s+/g, " ") : text;
}

/** Splits prose into sentences (see sentenceSpans). */
export function sentences(text: string): string[] {
  return sentenceSpans(text).map((span) => span.text);
}

/** Decodes HTML character references (one implementation, in src/lib: titles are made plain text there too). */
export { decodeEntities } from "../../../lib/html-entities";

/** Month names as a regular-expression alternation (dates in text: "July 16, 1966", "16 July 1966"). */
export const MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December";

/** SQuAD/HotpotQA answer normalisation: lower case, no punctuation, no articles, single spaces. */
export function normalizeAnswer(text: string): string {
  return fold(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, "")
    .replace(/\b(a|an|the)\b/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

export function unique<T>(items: Iterable<T>): T[] {
  return [...new Set(items)];
}

/** Each key's first item (in order), then each one's second, and so on: "each speaker's best page before anyone's second". */
export function inRounds<T>(items: T[], keyOf: (item: T) => string): T[] {
  const seen = new Map<string, number>();
  const rounds = items.map((item) => {
    const key = keyOf(item);
    const round = seen.get(key) ?? 0;
    seen.set(key, round + 1);
    return { item, round };
  });
  return rounds.sort((a, b) => a.round - b.round).map((entry) => entry.item);
}

/** "1984, 1986 and 1987" ("… or …" after a negation). */
export function listed(items: string[], joiner = "and"): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} ${joiner} ${items[items.length - 1]}`;
}

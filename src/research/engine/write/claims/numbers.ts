/**
 * The numbers a text states, as values: "72,641", "$72,641", "1.5 million", "six", "twenty-one",
 * "3rd", "the 1930s" (1930). What a claim states is looked for among its quotes' values, so
 * "six members" is held by "6 members" and "1.5 million" by "1,500,000".
 */
import { CARDINAL_WORDS, SCALE_WORDS, TENS_WORDS } from "../../language";

const UNITS: Record<string, number> = {
  ...CARDINAL_WORDS,
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  thirteenth: 13,
  fourteenth: 14,
  fifteenth: 15,
  sixteenth: 16,
  seventeenth: 17,
  eighteenth: 18,
  nineteenth: 19,
  once: 1,
  twice: 2,
  single: 1,
  double: 2,
  triple: 3,
  dozen: 12,
};
const TENS: Record<string, number> = { ...TENS_WORDS, twentieth: 20, thirtieth: 30 };
const SCALES = SCALE_WORDS;

/** One number of a text: its value and the words it was written as. */
export interface StatedNumber {
  value: number;
  text: string;
}

const DIGITS = /(?<![\p{L}\p{N}.])[$€£¥]?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?:(st|nd|rd|th|s)\b)?(?:\s+(hundred|thousand|million|billion|trillion)\b)?/giu;
const WORDS = new RegExp(`\\b(${Object.keys(TENS).join("|")})(?:[-\\s](${Object.keys(UNITS).join("|")}))?\\b|\\b(${Object.keys(UNITS).join("|")})\\b`, "gi");

/** The numbers stated in digits or in words. "One" and "single" count only as numbers beside a noun they count, which cannot be told here: they are left out of what a claim must show (see claimNumbers). */
export function statedNumbers(text: string): StatedNumber[] {
  const found: StatedNumber[] = [];
  for (const match of text.matchAll(DIGITS)) {
    const whole = Number(match[1]!.replace(/,/g, ""));
    const value = (match[2] ? Number(`${whole}.${match[2]}`) : whole) * (match[4] ? SCALES[match[4].toLowerCase()]! : 1);
    found.push({ value, text: match[0].trim() });
  }
  for (const match of text.matchAll(WORDS)) {
    const word = match[0].toLowerCase();
    const value = match[1] ? TENS[match[1].toLowerCase()]! + (match[2] ? (UNITS[match[2].toLowerCase()] ?? 0) : 0) : UNITS[word]!;
    found.push({ value, text: match[0] });
  }
  return found;
}

/**
 * The numbers a claim must show in its quotes: those in digits, and cardinals in words from two up
 * ("six members"). Not "one" or "a single" (they count nothing), nor ordinals in words ("the third
 * president", "nineteenth-century": a rank or a period, said in many ways); "19th" in digits counts.
 */
export function claimNumbers(text: string): StatedNumber[] {
  return statedNumbers(text).filter(
    (number) =>
      /\d/.test(number.text) || (number.value >= 2 && !/(st|nd|rd|th|ieth)$/i.test(number.text) && !/^(once|single|twice|double|triple)$/i.test(number.text)),
  );
}

/** Whether `values` holds `value` (to a part in a million: "1.5 million" against "1,500,000"). */
export function holdsValue(values: number[], value: number): boolean {
  return values.some((other) => Math.abs(other - value) <= Math.abs(value) * 1e-6);
}

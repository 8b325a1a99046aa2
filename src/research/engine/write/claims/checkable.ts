import { stem, STOPWORDS, words } from "../../language";
import { equivalents } from "./demonyms";
import { nameWordMeanings } from "../../evidence";
import { claimNumbers, holdsValue, statedNumbers } from "./numbers";

/**
 * What a claim says that its quotes can be checked for exactly: the numbers it states and the
 * names it gives. A claim may paraphrase its quotes freely; it may not bring a figure, a date or a
 * name they do not hold. Names compare after case, accents, light stemming, possessives and
 * demonyms ("Japanese" holds "Japan"); numbers by value ("six" is "6", "1.5 million" is
 * "1,500,000", "$72,641" is "72,641").
 */

export interface Missing {
  kind: "number" | "name";
  /** As the claim wrote it. */
  text: string;
}

/** After a number: it names a century ("19th century", "19th-century"). */
const CENTURY = /^[\s-]*century\b/i;

/** Capitalised words (a name's parts), with where they start. */
const CAPITALISED = /\p{Lu}[\p{L}\p{N}'’-]*/gu;
/** Words a sentence may start with, capitalised, that are not names (besides the stopwords). */
const OPENERS = new Set(
  (
    "although despite however while whereas since because according following after before during unlike like both neither either " +
    "in on at by for from with without as among between today yesterday later earlier still instead overall together"
  ).split(" "),
);
const MONTH_OR_DAY =
  /^(january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/;

/** The name words of a claim: capitalised words that are not stopwords, split where a name is hyphenated; at a sentence's start only a word `isName` knows. */
export function claimNames(text: string, isName: (word: string) => boolean): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(CAPITALISED)) {
    const before = text.slice(0, match.index).trimEnd();
    const sentenceStart = before === "" || /[.!?:]["')\]]?$/.test(before) || /^[-*•"'([]+$/.test(before);
    for (const word of words(match[0])) {
      if (word.length < 2 || STOPWORDS.has(word) || /^\d+$/.test(word)) continue;
      if (sentenceStart && (OPENERS.has(word) || !isName(word))) continue;
      if (!MONTH_OR_DAY.test(word) || !sentenceStart) names.push(word);
    }
  }
  return [...new Set(names)];
}

/**
 * The words and values of a set of quotes, ready to be looked in. The titles of their sources count
 * too: a page calls its subject "she" ("As an adult, she was named ambassador", on Shirley Temple's
 * page), and the title is what names her; a speech's date is in its title ("State of the Union
 * address, 1935"), not in its sentences.
 */
export class QuoteContent {
  readonly words: string[];
  private readonly stems: Set<string>;
  private readonly joined: string;
  private readonly values: number[];

  constructor(quotes: string[], titles: string[] = []) {
    this.words = [...quotes, ...titles].flatMap((text) => [...words(text), "|"]);
    this.stems = new Set(this.words.map(stem));
    this.joined = ` ${this.words.join(" ")} `;
    this.values = [...quotes, ...titles].flatMap((text) => statedNumbers(text).map((number) => number.value));
  }

  holdsName(word: string): boolean {
    if (this.stems.has(stem(word))) return true;
    if (equivalents(word).some((phrase) => this.joined.includes(` ${phrase.join(" ")} `))) return true;
    // A name as people write it, where the quotes or titles write it in full: "Bill" for "William J Clinton", "FDR".
    if (nameWordMeanings(word).some((phrase) => this.joined.includes(` ${phrase.join(" ")} `))) return true;
    // Demonyms the table lacks: "Georgian" and "Georgia", "Maltese" and "Malta".
    const bare = word.replace(/(?:ian|an|ese|ish|i)$/, "");
    return bare.length >= 4 && bare !== word && this.words.some((other) => other.startsWith(bare) && other.length <= bare.length + 4);
  }

  holdsNumber(value: number): boolean {
    return holdsValue(this.values, value);
  }

  /** "The 19th century": a year of it in the quotes or their titles (1801-1900). */
  holdsCentury(century: number): boolean {
    return this.values.some((value) => Number.isInteger(value) && value > 1000 && Math.ceil(value / 100) === century);
  }
}

/** What `claim` states that `quotes` do not hold: its numbers first, then its names. */
export function missingFromQuotes(claim: string, quotes: QuoteContent, isName: (word: string) => boolean): Missing[] {
  const missing: Missing[] = [];
  for (const number of claimNumbers(claim)) {
    const century = CENTURY.test(claim.slice(claim.indexOf(number.text) + number.text.length));
    if (!(century ? quotes.holdsCentury(number.value) : quotes.holdsNumber(number.value))) missing.push({ kind: "number", text: number.text });
  }
  for (const name of claimNames(claim, isName)) if (!quotes.holdsName(name)) missing.push({ kind: "name", text: name });
  return missing;
}

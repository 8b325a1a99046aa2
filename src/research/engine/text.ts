/** Text primitives shared by query analysis, ranking and synthesis. */

export const STOPWORDS = new Set(
  (
    "a an the and or but nor of in on at to for from by with without about into onto over under as is are was were be been being " +
    "am do does did done doing have has had having it its it's this that these those there here which who whom whose what when where why how " +
    "i me my we our you your he him his she her they them their not no yes so than then too very can could would should will shall may might must " +
    "also just only such both either neither each every all any some more most other same own s t via per upon out up down off again further once " +
    "between during before after above below while because if else what's which's one"
  ).split(/\s+/),
);

/** Question words and verbs that say what is asked, not what about: dropped from search terms. */
export const QUESTION_WORDS = new Set(
  ("who whom whose what which when where why how many much name named known called did does do is are was were " +
    // Framing verbs: "how did X describe Y" asks about Y; sentences using the verb are not answers.
    "describe describ explain characterize characteriz discuss say said mention talk")
    .split(" "),
);

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** Strips accents so "Colisée" and "Colisee" compare equal. */
export function fold(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}+/gu, "");
}

/** Lower-cased, accent-folded words (with possessive 's removed). */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const match of fold(text).toLowerCase().matchAll(WORD)) {
    out.push(match[0].replace(/['’]s$/, "").replace(/['’]/g, ""));
  }
  return out;
}

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

/** Content terms of a text: stemmed words without stopwords. */
export function terms(text: string): string[] {
  return words(text)
    .filter((word) => !STOPWORDS.has(word))
    .map(stem);
}

/**
 * Splits prose into sentences, keeping abbreviations ("U.S.", "Dr.", initials like "O.") and
 * decimals intact.
 */
export function sentences(text: string): string[] {
  const cleaned = text.replace(/\s+/g, " ").trim();
  if (!cleaned) return [];
  const out: string[] = [];
  const boundary = /([.!?]["”’)\]]?)\s+(?=["“(\[]?[\p{Lu}\p{N}])/gu;
  let start = 0;
  for (const match of cleaned.matchAll(boundary)) {
    const end = (match.index ?? 0) + match[1]!.length;
    const candidate = cleaned.slice(start, end);
    const lastWord = /(\S+)$/.exec(candidate)?.[1] ?? "";
    // "Mr.", "St.", "U.S.", single initials: not the end of a sentence.
    if (/^(?:[\p{Lu}]\.|(?:[\p{Lu}]\.){2,}|Mr\.|Mrs\.|Ms\.|Dr\.|St\.|Jr\.|Sr\.|Gen\.|Col\.|Lt\.|No\.|vs\.|Inc\.|Co\.|Ltd\.|Mt\.|Ft\.|Rev\.)$/u.test(lastWord)) continue;
    out.push(candidate.trim());
    start = end;
  }
  const rest = cleaned.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}

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

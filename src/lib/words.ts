/** Words of a text: English stopwords, accent folding, word splitting (the engine's language and the corpus search). */

export const STOPWORDS = new Set(
  (
    "a an the and or but nor of in on at to for from by with without about into onto over under as is are was were be been being " +
    "am do does did done doing have has had having it its it's this that these those there here which who whom whose what when where why how " +
    "i me my we our you your he him his she her they them their not no yes so than then too very can could would should will shall may might must " +
    "also just only such both either neither each every all any some more most other same own s t via per upon out up down off again further once " +
    "between during before after above below while because if else what's which's one " +
    // Negations written as one word ("cannot", "don't" read as "dont") are "can not", "do not": stopwords like those.
    "cannot cant dont doesnt didnt wont wouldnt isnt arent wasnt werent"
  ).split(/\s+/),
);

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** A character outside ASCII: only such text can hold accents or compatibility forms. */
const NON_ASCII = /[\u0080-\uffff]/;

/** Strips accents so "Colisée" and "Colisee" compare equal. */
export function fold(text: string): string {
  // ASCII text is its own NFKD form and has no marks: most sentences skip the normalizer.
  if (!NON_ASCII.test(text)) return text;
  return text.normalize("NFKD").replace(/\p{M}+/gu, "");
}

/** Lower-cased, accent-folded words (with possessive 's removed). */
export function words(text: string): string[] {
  const out: string[] = [];
  const folded = fold(text).toLowerCase();
  // Most sentences have no apostrophe: their words are taken as matched, unchecked.
  const apostrophes = folded.includes("'") || folded.includes("’");
  // An exec loop over the shared pattern (no iterator, no copy of the pattern per call); it is
  // safe because nothing here can re-enter words() while lastIndex is in use.
  WORD.lastIndex = 0;
  for (let match = WORD.exec(folded); match !== null; match = WORD.exec(folded)) {
    out.push(apostrophes ? withoutApostrophe(match[0]) : match[0]);
  }
  return OLD_SPELLING_HINT.test(folded) ? withModernSpellings(out) : out;
}

/**
 * Names the older pages of a corpus spell another way ("Porto Rico" in the addresses of 1900 to
 * 1932, "Viet-Nam" in Kennedy's), read as they are spelled now, so that a question asking about
 * Puerto Rico or Vietnam matches them. Spellings only: a place's other name (Formosa, Siam,
 * Peking) is another word, not another spelling of it. Quotes keep the page's own spelling.
 */
const OLD_SPELLING_HINT = /\b(?:porto|viet|servia|roumania)/;
const OLD_SPELLINGS: Record<string, string> = { servia: "serbia", servian: "serbian", roumania: "romania", roumanian: "romanian" };

/** The older spellings of a word as `words` reads it, to search a corpus indexed as written ("vietnam": "viet nam"). */
export function olderSpellings(word: string): string[] {
  if (word === "vietnam") return ["viet nam"];
  if (word === "puerto") return ["porto rico"];
  return Object.entries(OLD_SPELLINGS).flatMap(([old, modern]) => (modern === word ? [old] : []));
}

function withModernSpellings(tokens: string[]): string[] {
  const out: string[] = [];
  for (let at = 0; at < tokens.length; at++) {
    const [token, next] = [tokens[at]!, tokens[at + 1]];
    if (token === "viet" && next === "nam") {
      out.push("vietnam");
      at++;
    } else if (token === "porto" && next === "rico") out.push("puerto");
    else out.push(OLD_SPELLINGS[token] ?? token);
  }
  return out;
}

/** A word with its possessive 's dropped and any other apostrophe removed ("nation's" → "nation", "don't" → "dont"). */
function withoutApostrophe(word: string): string {
  if (!word.includes("'") && !word.includes("’")) return word;
  return word.replace(/['’]s$/, "").replace(/['’]/g, "");
}

/** Words of a text: English stopwords, accent folding, word splitting (the engine's language and the corpus search). */

export const STOPWORDS = new Set(
  (
    "a an the and or but nor of in on at to for from by with without about into onto over under as is are was were be been being " +
    "am do does did done doing have has had having it its it's this that these those there here which who whom whose what when where why how " +
    "i me my we our you your he him his she her they them their not no yes so than then too very can could would should will shall may might must " +
    "also just only such both either neither each every all any some more most other same own s t via per upon out up down off again further once " +
    "between during before after above below while because if else what's which's one"
  ).split(/\s+/),
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

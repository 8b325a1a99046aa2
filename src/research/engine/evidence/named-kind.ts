import { stem, words } from "../language";
import type { RankedDoc } from "./analysis";

/** What a named measure is ("the McKinley Tariff", "the Panama Canal Treaty"): the last word of its name. */
const KINDS = new Set(["tariff", "treaty", "canal", "doctrine", "compromise", "proclamation", "amendment", "purchase"].map(stem));
/** Words that make a kind a measure in the text: "the tariff act of 1890", "the new tariff law", "the canal treaty". */
const MEASURE_WORDS = new Set(["act", "acts", "law", "laws", "bill", "bills", "legislation", "treaty", "treaties"]);

/** Pages whose passages are looked in, and passages of each: the strong ones. */
const PAGES = 10;
const PASSAGES = 5;

/**
 * Whether the pages read speak of a named measure by what it is, when none writes its name: a law
 * known by a person's name is written in its own time by its kind ("the McKinley Tariff" is "the
 * tariff act of 1890", "the new tariff law" in the addresses of its years). A strong passage says
 * the name's last word as a measure: that word followed by "act", "law", "bill", "legislation" or
 * "treaty" (or "treaty" before it). The kind alone is not enough ("tariff" in any sentence), nor a
 * name whose last word is no kind of measure ("the Marshall Plan").
 */
export function speaksOfItsKind(entity: string, ranked: RankedDoc[]): boolean {
  const measure = measureKind(entity);
  if (!measure) return false;
  if (measure.saidAs) return ranked.slice(0, PAGES).some((entry) => entry.best.slice(0, PASSAGES).some((item) => saysMeasure(item.passage.terms, measure)));
  const kind = measure.kind;
  return ranked.slice(0, PAGES).some((entry) =>
    entry.best.slice(0, PASSAGES).some((item) => {
      const tokens = words(item.passage.text);
      return tokens.some((word, index) => {
        if (stem(word) !== kind) return false;
        const next = tokens[index + 1] ?? "";
        return MEASURE_WORDS.has(next) && stem(next) !== kind;
      });
    }),
  );
}

/**
 * Kinds named for a place, said in their own time by what was done with the place: "the Louisiana
 * Purchase" is "the acquisition of Louisiana", "the cession of Louisiana", "Louisiana was ceded".
 */
const SAID_AS: Record<string, string[]> = {
  [stem("purchase")]: ["purchase", "purchased", "cession", "ceded", "cede", "acquisition", "acquired", "acquire"].map(stem),
};

/**
 * A name of a measure, its kind the last word ("McKinley Tariff": kind "tariff", named for
 * "mckinley"; "Louisiana Purchase": said as the place with one of `saidAs`); null for any other name.
 */
export function measureKind(entity: string): { kind: string; namedFor: string[]; saidAs?: string[] } | null {
  const name = words(entity);
  if (name.length < 2) return null;
  const kind = stem(name[name.length - 1]!);
  if (!KINDS.has(kind)) return null;
  const saidAs = SAID_AS[kind];
  return { kind, namedFor: name.slice(0, -1).map(stem), ...(saidAs ? { saidAs } : {}) };
}

/** Whether a passage's terms say a measure said by what was done with its place: the place's words and one of the kind's. */
export function saysMeasure(terms: string[], measure: { namedFor: string[]; saidAs?: string[] }): boolean {
  const held = new Set(terms);
  return measure.saidAs !== undefined && measure.namedFor.every((term) => held.has(term)) && measure.saidAs.some((term) => held.has(term));
}

/** A cession to a nation other than the United States ("the cession of … Louisiana to France"): not a purchase of ours. */
const CEDED_TO_ANOTHER = /\b(?:cession|ceded|cede)\b[^.;]*?\bto\s+(?!the\s+United\s+States\b|us\b|this\s+)(?:the\s+)?\p{Lu}/u;

export function cededToAnother(text: string): boolean {
  return CEDED_TO_ANOTHER.test(text);
}

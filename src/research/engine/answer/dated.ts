import type { Passage, RankedDoc } from "../evidence";
import type { QueryAnalysis } from "../question";
import { actSentences } from "./act-sentences";

/** An answer read from the page whose sentence does what the question asks: its year, or its speaker (answer/spoken-by.ts). */
export interface AttributedAnswer {
  text: string;
  sentence: string;
  basis: Passage[];
  docs: number[];
}

/**
 * "When / in which year did X say or do Y?" answered from the document itself: the year of the
 * speech whose sentence does it (act-sentences.ts says which sentences do), read from its title
 * ("Lyndon B Johnson: State of the Union address, 1964" and "This administration today, here and
 * now, declares unconditional war on poverty in America"). The pages that do it must agree on one
 * year, unless the question asks when it was first done: then the earliest of them. The opening
 * quotes the sentence and the page's title, which holds the year: the claim stands on them.
 */
export function datedAnswer(query: QueryAnalysis, ranked: RankedDoc[]): AttributedAnswer | null {
  if (query.expects !== "year" && query.expects !== "date") return null;
  if (query.hops || query.comparison) return null;
  const found = actSentences(query, ranked, false);
  if (found.length === 0) return null;
  const years = new Set(found.map((item) => item.year));
  // "When did X first …?" asks for the earliest of the speeches that do it; otherwise they must agree.
  const first = /\bfirst\b/i.test(query.question);
  if (years.size !== 1 && !first) return null;
  const best = first ? found.reduce((earliest, item) => (item.year < earliest.year ? item : earliest)) : found[0]!;
  const year = String(best.year);
  return {
    text: year,
    sentence: `In ${year} (${best.entry.doc.title.trim()}): "${best.passage.text.trim()}"`,
    basis: [best.passage],
    docs: [best.entry.doc.index],
  };
}

import type { Passage, RankedDoc } from "../evidence";
import { listed, withoutHeading } from "../language";
import { asksAboutSpeech, type QueryAnalysis } from "../question";
import { type ActSentence, actSentences, asksForTheFirst, asksWhenSetOut, earliestOf } from "./act-sentences";

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
 * now, declares unconditional war on poverty in America"). The pages that do an act must agree on
 * one year, unless the question asks when it was first done: then the earliest of them. Something
 * said ("talk about atoms for peace") may be said in several years, each of which answers: all of
 * them, in order. The opening quotes each sentence and its page's title, which holds the year: the
 * claim stands on them.
 */
export function datedAnswer(query: QueryAnalysis, ranked: RankedDoc[]): AttributedAnswer | null {
  if (query.expects !== "year" && query.expects !== "date") return null;
  if (query.hops || query.comparison) return null;
  const found = actSentences(query, ranked, false);
  if (found.length === 0) return null;
  const years = new Set(found.map((item) => item.year));
  // "When did X first …?" asks for the earliest of the speeches that do it, and so does a question
  // of when something was set out ("What year did Johnson announce the war on poverty?"): later
  // speeches speak of it again, they do not announce it again. "In which years …" still asks for each.
  if (asksForTheFirst(query) || asksWhenSetOut(query)) return answerFrom([earliestOf(found)]);
  if (years.size === 1) return answerFrom([found[0]!]);
  if (!asksAboutSpeech(query)) return null;
  const byYear = [...years].sort((a, b) => a - b).map((year) => found.find((item) => item.year === year)!);
  return answerFrom(byYear);
}

/** The years of these sentences ("1956, 1958 and 1961"), each quoted with its page's title. */
function answerFrom(items: ActSentence[]): AttributedAnswer {
  return attributedAnswer(
    items,
    (item) => String(item.year),
    (item, index) => `${index === 0 ? "In" : "in"} ${item.year} (${item.entry.doc.title.trim()}): "${withoutHeading(item.passage.text).trim()}"`,
  );
}

/** An answer listing what each sentence's page says of itself (`named`: its year, its speaker), each sentence quoted (`quote`) and cited. */
export function attributedAnswer(
  items: ActSentence[],
  named: (item: ActSentence) => string,
  quote: (item: ActSentence, index: number) => string,
): AttributedAnswer {
  return {
    text: listed(items.map(named)),
    sentence: items.map(quote).join("; "),
    basis: items.map((item) => item.passage),
    docs: items.map((item) => item.entry.doc.index),
  };
}

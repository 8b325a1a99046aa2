import { namesPerson, type RankedDoc } from "../evidence";
import type { QueryAnalysis } from "../question";
import { actSentences } from "./act-sentences";
import type { AttributedAnswer } from "./dated";

/**
 * "Which president / who declared an unconditional war on poverty?" answered from the document
 * itself: the speaker of the speech whose sentence does it (act-sentences.ts), read from its
 * title. The pages that do it must all be one speaker's. The opening quotes the sentence after
 * the speaker and the rest of the title, words the cited page's title holds: "Lyndon B Johnson
 * (State of the Union address, 1964): "This administration today, here and now, declares
 * unconditional war on poverty in America"".
 */
export function spokenByAnswer(query: QueryAnalysis, ranked: RankedDoc[]): AttributedAnswer | null {
  if (query.expects !== "person") return null;
  if (query.hops || query.comparison || query.options.length > 0) return null;
  const found = actSentences(query, ranked, true);
  if (found.length === 0) return null;
  const best = found[0]!;
  if (!found.every((item) => namesPerson(best.speaker, item.speaker) || namesPerson(item.speaker, best.speaker))) return null;
  const title = best.entry.doc.title.trim();
  const rest = title.startsWith(`${best.speaker}:`) ? title.slice(best.speaker.length + 1).trim() : title;
  return {
    text: best.speaker,
    sentence: `${best.speaker} (${rest}): "${best.passage.text.trim()}"`,
    basis: [best.passage],
    docs: [best.entry.doc.index],
  };
}

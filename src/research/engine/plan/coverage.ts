import { nameForms } from "../evidence";
import { unique } from "../language";
import { type QueryAnalysis, topicWords } from "../question";
import type { Coverage } from "../write";
import { coverageGaps } from "../write";

/**
 * The searches for what the pages read leave uncovered (pro and max, before writing): a side of
 * a comparison by every form of its name with the topic ("Clinton big government", "Franklin D
 * Roosevelt role federal government" for "FDR"), or the next page its chain needs; the bridge
 * entity of a chain's unresolved hop; each uncovered decade of an open question over time with
 * the topic ("tariffs 1830s"). Never a query already searched.
 */
export function coverageQueries(query: QueryAnalysis, coverage: Coverage, alreadySearched: Set<string>, limit: number): string[] {
  const topic = (coverage.topic ? topicWords(coverage.topic) : query.focusTerms.slice(0, 4)).join(" ");
  const candidates: string[] = [];
  for (const gap of coverageGaps(coverage)) {
    if (gap.kind === "side") {
      if (gap.next) candidates.push(gap.next);
      for (const form of nameForms(gap.name)) candidates.push(`${form} ${topic}`.trim());
    } else if (gap.kind === "hop") {
      candidates.push(gap.name);
    } else {
      candidates.push(`${topic} ${gap.decade}s`.trim());
    }
  }
  const seen = new Set([...alreadySearched].map((text) => text.toLowerCase()));
  return unique(candidates.map((text) => text.replace(/\s+/g, " ").trim()))
    .filter((text) => text && !seen.has(text.toLowerCase()))
    .slice(0, limit);
}

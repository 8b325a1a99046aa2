import type { RankedDoc } from "../evidence";
import { askedSubjects, comparedSubjects, type QueryAnalysis } from "../question";
import type { BriefWriter, SynthesisOptions } from "./brief-writer";
import { chooseOpenSources } from "./open-sources";
import { writeOpenFindings } from "./open-findings";
import { openTopic } from "./open-topic";
import { type Overview, writeOverview } from "./overview";

/**
 * Questions answered by a synthesis rather than one fact: open questions that ask for an account
 * ("How did presidents talk about tariffs?", "What did Lincoln say about the Union?") and
 * comparisons of named subjects.
 */
export function wantsSynthesis(query: QueryAnalysis): boolean {
  return query.kind === "open" && (query.expects === "description" || comparedSubjects(query).length >= 2);
}

/**
 * The brief of an open question: an overview that synthesizes across the sources, then the
 * findings grouped by subject, period or speaker. Returns the overview's first sentence.
 */
export function writeOpenBrief(writer: BriefWriter, query: QueryAnalysis, ranked: RankedDoc[], options: SynthesisOptions): Overview | null {
  const subjects = askedSubjects(query);
  const chosen = chooseOpenSources(query, ranked, openTopic(query, subjects), subjects, options);
  const overview = writeOverview(writer, query, chosen);
  writeOpenFindings(writer, chosen);
  return overview;
}

import type { RankedDoc } from "../../evidence";
import { askedSubjects, comparedSubjects, type QueryAnalysis } from "../../question";
import type { BriefWriter, SynthesisOptions } from "../brief-writer";
import { chooseOpenEndedSources } from "./sources";
import { writeOpenEndedFindings } from "./findings";
import { openEndedTopic } from "./topic";
import { type Overview, writeOverview } from "./overview";

/**
 * Questions answered by a synthesis rather than one fact: open-ended questions that ask for an account
 * ("How did presidents talk about tariffs?", "What did Lincoln say about the Union?") and
 * comparisons of named subjects.
 */
export function wantsSynthesis(query: QueryAnalysis): boolean {
  if (query.kind !== "open") return false;
  if (comparedSubjects(query).length >= 2) return true;
  // "description" is also what a question the analysis could not type falls back to ("whats the
  // capital of …", "… was formed by who?"): those want a fact, so the question must ask for an account.
  // "Why did the director of film X die?" asks for one fact at the end of a chain of hops.
  if (/^\s*why\b/i.test(query.question) && query.linkTerms.length > 0) return false;
  return (
    (query.expects === "description" && ASKS_FOR_ACCOUNT.test(query.question)) ||
    ASKS_FOR_VIEWS.test(query.question) ||
    ASKS_WHEN_ONE_SPOKE.test(query.question)
  );
}

/**
 * "In which years did Franklin Roosevelt speak about social security?": many years of one
 * speaker on a topic; the account year by year says them. ("Which presidents talked about …?"
 * stays a question of names: its brief cites the pages whose sentences do it, which a typed list
 * of presidents is read from.)
 */
const ASKS_WHEN_ONE_SPOKE =
  /^\s*(?:(?:in|during)\s+)?(?:which|what)\s+(?:years|decades)\s+did\s+.+?\s+(?:talk|speak|say|mention|discuss|address|describe|write)\b/i;

/** "What was Ronald Reagan's view of the Soviet Union?", "What were JFK's views on the space race?": an account, whatever the answer type read. */
const ASKS_FOR_VIEWS =
  /^\s*what (?:was|were|is|are) (?:the )?[^?]*?['’]s? (?:views?|positions?|stance|attitudes?|thoughts|opinions?|feelings) (?:on|of|about|toward|towards|regarding)\b/i;

/** How/why questions, "What did X say about / do …", "What was the effect of …", "Describe …". */
const ASKS_FOR_ACCOUNT =
  /^\s*(?:how|why|in what ways?|to what extent)\b|^\s*what (?:did|do|does|have|has|had|would)\b|^\s*what (?:happened|happens)\b|^\s*what (?:is|was|were|are) the (?:effects?|impacts?|significance|role|purpose|consequences?|outcome|results?) of\b|^\s*(?:describe|explain|discuss|summari[sz]e|compare|contrast)\b/i;

/**
 * The brief of an open-ended question: an overview that synthesizes across the sources, then the
 * findings grouped by subject, period or speaker. Returns the overview's first sentence.
 */
export function writeOpenEndedBrief(writer: BriefWriter, query: QueryAnalysis, ranked: RankedDoc[], options: SynthesisOptions): Overview | null {
  const subjects = askedSubjects(query);
  const chosen = chooseOpenEndedSources(query, ranked, openEndedTopic(query, subjects), subjects, options);
  const overview = writeOverview(writer, query, chosen);
  writeOpenEndedFindings(writer, chosen);
  return overview;
}

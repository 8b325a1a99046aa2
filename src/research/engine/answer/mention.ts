import type { Evidence, Passage } from "../evidence";
import { namesPerson, pageAttribution } from "../evidence";
import { cededToAnother, measureKind, saysMeasure } from "../evidence/named-kind";
import { claimWords, saysInOrder } from "../question";

/**
 * "Did any president ever mention the internet?", "Did Thomas Jefferson mention the Louisiana
 * Purchase?": yes when a page of that speaker (any speaker for "any president") says the words,
 * and the sentences that say them are the answer's basis. "Did Bill Clinton say the era of big
 * government is over?" likewise, when one of his sentences says those words in that order: the
 * answer quotes it. The words missing from what was read is not a "no" (the next page might say
 * them): no answer is stated then.
 */

const MENTION =
  /^(?:did|has|have|does|do)\s+(.+?)\s+(?:ever\s+)?(?:mention(?:ed)?|talk(?:ed)? about|speak about|spoke about|speak of|refer(?:red)? to|say anything about|discuss(?:ed)?)\s+(?:the\s+|a\s+|an\s+)?(.+?)\s*\??$/i;
/** "Did X say (that) …": what is said, three words at least (fewer is a topic, not a claim). */
const SAYING = /^(?:did|has|have|does|do)\s+(.+?)\s+(?:ever\s+)?(?:say|declare|state|proclaim|announce)\s+(?:that\s+)?(.+?)\s*\??$/i;
const CLAIM_WORDS = 3;
const ANY_SPEAKER = /^(?:any|a|an|some|ever a|one)\s+(?:u\.?s\.?\s+|us\s+|american\s+)?(?:president|presidents|speaker|leader)s?$/i;

export interface MentionAnswer {
  text: "yes";
  sentence: string;
  basis: Passage[];
  docs: number[];
}

/** The sentences a mention answer quotes, at most (the earliest first). */
const QUOTED = 3;

export function mentionAnswer(question: string, evidence: Evidence): MentionAnswer | null {
  const asked = question.trim();
  const mention = MENTION.exec(asked);
  const saying = mention ? null : SAYING.exec(asked);
  const match = mention ?? saying;
  if (!match) return null;
  const speaker = match[1]!.trim();
  const topic = claimWords(match[2]!).join(" ");
  if (!topic || (saying && topic.split(" ").length < CLAIM_WORDS)) return null;
  const anyone = ANY_SPEAKER.test(speaker);
  // A measure named for a place is said in its own time by what was done with it: "the Louisiana
  // Purchase" is "the acquisition of Louisiana" (never a cession of it to another nation).
  const measure = mention ? measureKind(match[2]!) : null;
  const saysItsMeasure = (passage: Passage) => measure?.saidAs !== undefined && saysMeasure(passage.terms, measure) && !cededToAnother(passage.text);
  const found: { passage: Passage; who: string; year: number | null }[] = [];
  for (const doc of evidence.docs) {
    const { speaker: who, year } = pageAttribution(doc.title);
    if (!who || (!anyone && !namesPerson(who, speaker))) continue;
    const passage = doc.passages.find((candidate) => saysInOrder(candidate.text, topic) || saysItsMeasure(candidate));
    if (passage) found.push({ passage, who, year });
  }
  if (found.length === 0) return null;
  found.sort((a, b) => (a.year ?? 0) - (b.year ?? 0));
  const quoted = found.slice(0, QUOTED);
  const when = (entry: (typeof found)[number]) => (entry.year ? `${entry.who} (${entry.year})` : entry.who);
  const sentence = saying
    ? `Yes: ${found.length === 1 ? `${when(found[0]!)} said` : `${found.length} of the sources read say it, the earliest ${when(found[0]!)}:`} "${found[0]!.passage.text.trim()}"`
    : found.length === 1
      ? `Yes: ${when(found[0]!)} mentions ${match[2]!.trim()} in the sources read.`
      : anyone
        ? `Yes: ${found.length} of the sources read mention ${match[2]!.trim()}, the earliest ${when(found[0]!)} and the latest ${when(found[found.length - 1]!)}.`
        : // One speaker's pages, not all those read: others may mention it too ("Did Kennedy ever mention Vietnam?").
          `Yes: ${found[0]!.who} mentions ${match[2]!.trim()} in ${found.length} of the sources read, ${yearsFrom(found)}.`;
  return { text: "yes", sentence, basis: quoted.map((entry) => entry.passage), docs: [...new Set(quoted.map((entry) => entry.passage.doc))] };
}

/** "the earliest in 1961 and the latest in 1963" (or nothing about years when a page has none). */
function yearsFrom(found: { year: number | null }[]): string {
  const first = found[0]!.year;
  const last = found[found.length - 1]!.year;
  return first !== null && last !== null ? `the earliest in ${first} and the latest in ${last}` : "each quoted";
}

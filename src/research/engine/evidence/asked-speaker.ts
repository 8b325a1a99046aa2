import type { QueryAnalysis } from "../question";
import { words } from "../language";
import { pageAttribution, personAmong } from "./attribution";
import type { RankedDoc } from "./analysis";

/** "How many new jobs did Bill Clinton say …", "What did Obama report …", "according to Lincoln": whose words are asked for. */
const SAYING =
  /\b(?:did|does|do|has|have|had)\s+(.+?)\s+(?:say|tell|report|claim|promise|pledge|predict|estimate|announce|propose|ask|call|mention|describe|count|cite)\b|\baccording to\s+(.+?)(?=[,?.]|\s+(?:in|during|on|about)\b|$)/i;

/**
 * A question asking for what one person said is answered from that person's own words: when the
 * pages read include some whose speaker it is, the pages of other speakers go (pages that name no
 * speaker stay). "How many new jobs did Bill Clinton say the economy had created?" had quoted
 * Joseph R Biden's "We're creating hundreds of thousands of new jobs".
 */
export function keepAskedSpeaker(query: QueryAnalysis, ranked: RankedDoc[]): RankedDoc[] {
  const framed = SAYING.exec(query.question);
  const span = framed ? words(framed[1] ?? framed[2] ?? "").join(" ") : "";
  const person = span ? query.entities.find((entity) => words(entity).join(" ") === span) : undefined;
  if (!person) return ranked;
  const speakers = ranked.map((entry) => pageAttribution(entry.doc.title).speaker);
  const isAsked = personAmong(
    person,
    speakers.filter((speaker): speaker is string => speaker !== null),
  );
  if (!speakers.some((speaker) => speaker !== null && isAsked(speaker))) return ranked;
  return ranked.filter((_, index) => speakers[index] === null || isAsked(speakers[index]!));
}

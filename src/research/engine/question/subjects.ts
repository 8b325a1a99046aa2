import type { QueryAnalysis } from "./query";
import { withoutPossessive, words } from "../language";

/** Words that make an open question a comparison of the subjects it names. */
const COMPARING = /\b(?:differ\w*|difference\w*|compar\w*|contrast\w*|versus|vs|disagree\w*|similar\w*|alike)\b/i;
/** What joins two compared subjects: "A and B", "A with B", "A versus B". */
const JOINERS = new Set(["and", "with", "versus", "vs", "or", "to"]);
/** "How did X describe …", "What did X say about …", "In which years did X speak about …": X is who is asked about. */
const SPEAKER_FRAMING =
  /^\s*(?:how|what|(?:(?:in|during)\s+)?(?:which|what)\s+(?:years|decades))\s+(?:did|do|does|has|have|had|would)\s+(.+?)\s+(?:describe|view|see|discuss|explain|characteri[sz]e|say|talk|think|write|speak|feel|portray|argue|address|approach|mention)\b/i;

/** "What was Ronald Reagan's view of …", "What were JFK's views on …": X is who is asked about. */
const VIEWS_FRAMING =
  /^\s*what\s+(?:was|were|is|are)\s+(.+?)['’]s?\s+(?:views?|positions?|stance|attitudes?|thoughts|opinions?|feelings)\s+(?:on|of|about|toward|towards|regarding|concerning)\b/i;

/** Where the entity's words stand in the question's words. */
function position(asked: string[], entity: string): { start: number; end: number } | null {
  const wanted = words(entity);
  if (wanted.length === 0) return null;
  for (let start = 0; start + wanted.length <= asked.length; start++) {
    if (wanted.every((word, offset) => asked[start + offset] === word)) return { start, end: start + wanted.length };
  }
  return null;
}

/** "How did Clinton's view of government differ from Reagan's?": the first, the topic, the second. */
const POSSESSIVE_COMPARISON =
  /^\s*how\s+(?:did|does|do|would)\s+(.+?)['’]s?\s+(?:views?|positions?|stance|attitudes?|approach(?:es)?|policy|policies)\s+(?:of|on|to|toward|towards|about|regarding|concerning)\s+(.+?)\s+(?:differ|compare|contrast)\s+(?:from|with|to)\s+(?:that of\s+|those of\s+)?(.+?)(?:['’]s?)?\s*[?.!]*\s*$/i;

/** The parts of a comparison asked through possessives ("How did A's view of X differ from B's?"), or null. */
export function possessiveComparison(question: string): { first: string; topic: string; second: string } | null {
  const match = POSSESSIVE_COMPARISON.exec(question);
  return match ? { first: match[1]!, topic: match[2]!, second: match[3]! } : null;
}

/**
 * The subjects an open question compares ("How did Franklin D. Roosevelt and Ronald Reagan
 * differ on …", "Compare A with B on …"): named entities joined in the question. A yes/no
 * comparison ("Were A and B of the same nationality?") is answered, not compared: empty.
 */
export function comparedSubjects(query: QueryAnalysis): string[] {
  if (query.kind !== "open" || !COMPARING.test(query.question)) return [];
  // "How did Clinton's view of government differ from Reagan's?": the two whose views are set side by side.
  const possessive = possessiveComparison(query.question);
  if (possessive) {
    const named = [possessive.first, possessive.second].map((side) =>
      query.entities.find((entity) => words(withoutPossessive(entity)).join(" ") === words(side).join(" ")),
    );
    if (named[0] && named[1]) return named.map((entity) => withoutPossessive(entity!));
  }
  const asked = words(query.question);
  const subjects: string[] = [];
  for (const first of query.entities) {
    for (const second of query.entities) {
      const a = position(asked, first);
      const b = position(asked, second);
      // Next to each other with a joiner between ("A and B"; "A, B and C" pairs B and C).
      if (a && b && b.start === a.end + 1 && JOINERS.has(asked[a.end]!)) subjects.push(first, second);
    }
  }
  return [...new Set(subjects)];
}

/**
 * The named people an open question asks about: "How did Lincoln describe the Union?" asks for
 * Lincoln's words, not for every speech that mentions the Union, and "How did George W. Bush and
 * Barack Obama talk about Iraq?" for each one's (a comparison by its framing). Empty when the
 * asked are not named ("How did presidents …").
 */
function namedSpeakers(query: QueryAnalysis): string[] {
  if (query.kind !== "open") return [];
  const framed = SPEAKER_FRAMING.exec(query.question) ?? VIEWS_FRAMING.exec(query.question);
  if (!framed) return [];
  const span = words(framed[1]!);
  // Named without its possessive: the overview says "JFK's view", not "JFK's's view".
  const whole = query.entities.find((entity) => words(entity).join(" ") === span.join(" "));
  // A name read whole across "and" ("Washington and Adams", as "Lewis and Clark" is one) is two
  // people when the question asks how each spoke.
  const joined = whole?.split(/\s+(?:and|or|&)\s+/);
  if (joined && joined.length >= 2) return joined;
  if (whole) return [withoutPossessive(whole)];
  // Several joined ("A and B", "A, B and C"): every word of the span is a name's or a joiner.
  const named: string[] = [];
  let at = 0;
  while (at < span.length) {
    if (named.length > 0 && JOINERS.has(span[at]!)) {
      at++;
      continue;
    }
    const next = query.entities.find((entity) => position(span.slice(at), entity)?.start === 0);
    if (!next) return [];
    named.push(withoutPossessive(next));
    at += words(next).length;
  }
  return named.length >= 2 ? named : [];
}

/** The subjects whose views an open question asks for: the compared ones, or the one named speaker. */
export function askedSubjects(query: QueryAnalysis): string[] {
  const compared = comparedSubjects(query);
  if (compared.length >= 2) return compared;
  return namedSpeakers(query);
}

/** Speakers asked of as many: "Which presidents mentioned …", "How did presidents describe …". */
const SEVERAL_SPEAKERS = /\b(?:presidents|speakers|leaders|politicians)\b/i;

/**
 * Whether the question asks which speaker did something first ("Which president first mentioned
 * climate change?"): the answer rests on having read every speaker who did it, the earliest above all.
 */
export function asksWhoFirst(query: QueryAnalysis): boolean {
  return (
    /\b(?:(?:which|what)\s+(?:president|speaker|leader|politician)|who)\s+(?:was\s+the\s+)?first\b/i.test(query.question) && askedSubjects(query).length === 0
  );
}

/** Whether the question asks of several speakers it does not name: who among them spoke of it. */
export function asksOfSeveralSpeakers(query: QueryAnalysis): boolean {
  return SEVERAL_SPEAKERS.test(query.question) && askedSubjects(query).length === 0;
}

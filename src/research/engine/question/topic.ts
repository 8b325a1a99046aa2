import { questionPeriod } from "./query";
import { possessiveComparison } from "./subjects";
import { STOPWORDS, words } from "../language";

/**
 * What an open question is about, in its own words: "How did presidents talk about tariffs in
 * the 19th century?" -> "tariffs"; "How did A and B differ on the role of the federal
 * government?" -> "the role of the federal government". The overview names it ("… addressed
 * tariffs"); a comparison searches each subject with it. Null when the question has no such
 * phrase: the brief then does without it rather than guess.
 */
const AFTER_FRAMING =
  /\b(?:(?:views?|positions?|stance|attitudes?|thoughts|opinions?|feelings)\s+(?:on|of|about|toward|towards|regarding|concerning)|(?:say|said|talk|talked|speak|spoke|think|thought|write|wrote|feel|felt|argue|argued)\s+(?:about|of|on|regarding|concerning)|(?:differ|differed|disagree|disagreed|agree|agreed)\s+(?:on|over|about|regarding|concerning|in their views? (?:of|on))|describe|described|view|viewed|see|saw|discuss|discussed|explain|explained|characteri[sz]e|characteri[sz]ed|portray|portrayed|address|addressed|approach|approached|handle|handled|treat|treated)\s+(.+)$/i;

/** After the compared subjects: "Compare A and B on trusts", "A versus B regarding taxes". */
const AFTER_SUBJECTS = /^\s*(?:on|about|over|regarding|concerning|in (?:their )?(?:views?|positions?|approach(?:es)?) (?:on|to|of))\s+(.+)$/i;

/** Words that end a topic without being part of it ("… differently", "… over time"). */
const TRAILING = /\s+(?:differently|over time|throughout (?:their|his|her) (?:careers?|terms?|presidenc(?:y|ies))|in (?:their|his|her) speeches)\s*$/i;

function clean(phrase: string): string | null {
  // "tariffs in" once "the 19th century" is taken out: a preposition left dangling goes too.
  const text = phrase
    .replace(/[?.!]+\s*$/, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(TRAILING, "")
    .replace(/\s+(?:in|of|on|at|during|from|to|for|by|about|since|before|after|between)$/i, "");
  const content = words(text).filter((word) => !STOPWORDS.has(word));
  return content.length > 0 && content.length <= 8 ? text : null;
}

/** Where a name ends in the question, whatever stands between its words ("Franklin D. Roosevelt" for "Franklin D Roosevelt"). */
function endOfName(text: string, name: string): number {
  const pattern = words(name)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[^\\p{L}\\p{N}]+");
  const matches = pattern ? [...text.matchAll(new RegExp(pattern, "giu"))] : [];
  const last = matches[matches.length - 1];
  return last ? (last.index ?? 0) + last[0].length : -1;
}

/** The topic phrase of the question, its period left out; for a comparison, `lastSubject` is the subject named last. */
export function questionTopic(question: string, lastSubject?: string): string | null {
  const { rest } = questionPeriod(question);
  const possessive = possessiveComparison(rest);
  if (possessive) return clean(possessive.topic);
  const framed = AFTER_FRAMING.exec(rest);
  if (framed) return clean(framed[1]!);
  if (lastSubject) {
    const end = endOfName(rest, lastSubject);
    const after = end >= 0 ? AFTER_SUBJECTS.exec(rest.slice(end)) : null;
    if (after) return clean(after[1]!);
  }
  return null;
}

/** The topic's content words, unstemmed, for a search ("role federal government"). */
export function topicWords(topic: string): string[] {
  return words(topic).filter((word) => !STOPWORDS.has(word));
}

import type { RankedDoc, ScoredPassage } from "../../evidence";
import { respectsStance } from "../../evidence";
import type { QueryAnalysis } from "../../question";
import { hasFiniteVerb, withoutHeading } from "../../language";
import { aboutTopic, type OpenEndedTopic } from "./topic";

/** Shorter than this is a slogan or a fragment; longer, a paragraph nobody reads in a brief. */
const MIN_WORDS = 5;
const MAX_WORDS = 80;
/** Past this many words a sentence is a poorer overview clause, however well it scores. */
const CONCISE_WORDS = 30;

/**
 * The sentences of a page that can stand in a brief as statements: they are about the topic
 * (`aboutTopic`), score at least `floor`, have a finite verb (a fragment such as "The cost of being
 * cast into a concentration camp." states nothing), are not questions, do not contradict the
 * question's stance, and start as a sentence starts (a lower-case start is a bad split). Best first.
 */
export function quotableStatements(entry: RankedDoc, query: QueryAnalysis, topic: OpenEndedTopic, floor: number): ScoredPassage[] {
  return entry.best.filter((item) => {
    // The score first: most of a long page's sentences are below the floor, and counting their words is the cost.
    if (!(item.score >= floor)) return false;
    const text = item.passage.text;
    const length = text.split(/\s+/).length;
    return (
      length >= MIN_WORDS &&
      length <= MAX_WORDS &&
      !/\?["”’)]*$/.test(text) &&
      /^["“(]?[\p{Lu}\p{N}]/u.test(text) &&
      respectsStance(item.passage, query) &&
      hasFiniteVerb(text) &&
      aboutTopic(item.passage, topic)
    );
  });
}

/** A sentence leaning on the one before it ("This was …", "the two former") means little quoted alone. */
const ANAPHORIC = /^(?:["“(]?(?:this|that|these|those|it|its|such|they|their|them|he|his|she|her|here|there)\b)|\b(?:the (?:former|latter|same)|two former)\b/i;

/** Whether a sentence leans on the one before it, its leading connective aside. */
export function leansOnContext(text: string): boolean {
  return ANAPHORIC.test(quoted(text));
}

/**
 * The statement to quote for a page in one clause: the best, unless a nearly as good one is much
 * shorter, or the best leans on the sentence before it.
 */
export function conciseStatement(statements: ScoredPassage[]): ScoredPassage | undefined {
  const value = (item: ScoredPassage) =>
    item.score * Math.min(1, CONCISE_WORDS / item.passage.text.split(/\s+/).length) * (leansOnContext(item.passage.text) ? 0.5 : 1);
  return statements.slice(0, 6).reduce<ScoredPassage | undefined>((best, item) => (!best || value(item) > value(best) ? item : best), undefined);
}

/** "But", "And", "Manifestly if …": words that tie a sentence to the one before it, dropped when it is quoted alone. */
const CONNECTIVE =
  /^(?:(?:but|and|yet|so|now|hence|thus|therefore|moreover|furthermore|however|still|indeed|also|again|accordingly|consequently|manifestly|finally|besides|then|in addition|in other words|in short|of course|on the other hand)\b,?\s+)+/i;

/** A list's number before a sentence: "(7) Effort should be made …". */
const ENUMERATOR = /^\(\d{1,2}\)\s+/;

/** A sentence as quoted in a clause: a heading run into it, a list number, the connective that tied it to its context and its final stop trimmed, nothing else changed. */
export function quoted(text: string): string {
  const trimmed = withoutHeading(text)
    .replace(ENUMERATOR, "")
    .replace(CONNECTIVE, "")
    .replace(/[.!;:]+(["”’)]*)$/, "$1")
    .trim();
  return trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
}

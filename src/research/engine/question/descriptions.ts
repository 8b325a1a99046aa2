import { type ChainRelation, readHopChain, readSubject } from "./hops";

/**
 * A question that asks something open of an entity it only describes: "What is the name of the
 * waterfall in the country where the Bubye River is found?" describes Zimbabwe (the country of
 * the Bubye River) and asks, of it, the name of its waterfall. The description is a hop chain
 * ending in an identity (question/hops.ts reads it); what is asked of the entity it reaches is
 * the question with the entity's name in the description's place, read on that entity's page
 * like any single-hop question (answer/description.ts).
 *
 * Pure text. A question the hop chain reads whole (an attribute of a described entity) is left to
 * it; this reads only what is left: a description inside an open question.
 */
export interface EmbeddedDescription {
  /** The description as the question words it ("the country where the Bubye River is found"). */
  phrase: string;
  /** The entity it starts from, and the relations that lead from it to the described entity. */
  anchor: string;
  relations: ChainRelation[];
  /** The question before and after the description: the entity's name goes between. */
  before: string;
  after: string;
}

/** Lower-case words a name may hold ("Alexander and the Terrible ...", "The Jewel of the Nile"); any other ends it. */
const NAME_JOINERS = new Set([
  "of",
  "the",
  "and",
  "a",
  "an",
  "in",
  "on",
  "for",
  "to",
  "with",
  "at",
  "by",
  "or",
  "de",
  "la",
  "le",
  "du",
  "del",
  "der",
  "von",
  "van",
  "und",
]);

/** An anchor is a name: each word capitalised, a number, or a joiner ("Aschenbrodel was a citizen" is not). */
function isName(anchor: string): boolean {
  return anchor.split(/\s+/).every((word) => /^[\p{Lu}\p{N}"“'‘(]/u.test(word) || NAME_JOINERS.has(word));
}

/**
 * The longest description inside a question that reads as relations applied to a named anchor,
 * with something asked around it. Candidates start at any word and end at the question's end or
 * after a place verb; the longest that reads wins (it holds the shorter ones).
 */
export function readEmbeddedDescription(question: string): EmbeddedDescription | null {
  const q = question
    .trim()
    .replace(/\s*\?+\s*$/, "")
    .replace(/\s+/g, " ");
  if (readHopChain(q)) return null;
  const starts = [...q.matchAll(/(?:^|\s)(?=\S)/g)].map((match) => (match.index ?? 0) + match[0].length);
  // A description ends at a word's end: the question's, or inside it ("... is located became a state").
  const ends = [...q.matchAll(/[^\s,;:]+(?=[\s,;:]|$)/g)].map((match) => (match.index ?? 0) + match[0].length);
  let best: EmbeddedDescription | null = null;
  for (const start of starts) {
    // The question's own opening ("What is", "Who was") is never part of the description.
    if (start === 0) continue;
    for (const end of ends) {
      if (end <= start || (best && end - start <= best.phrase.length)) continue;
      const phrase = q.slice(start, end);
      const subject = readSubject(phrase);
      if (!subject || !isName(subject.anchor)) continue;
      const before = q.slice(0, start);
      // "the country where X was" ends a question, never a clause ("... where X was a citizen"): the rest would be lost.
      if (/\b(?:is|was|are|were)$/i.test(phrase) && end < q.length) continue;
      // Something must be asked of the entity: a question word before the description.
      if (!/^(?:\p{L}+\s+)*?(?:what|which|who|whom|whose|when|where|how|in what|in which)\b/iu.test(before)) continue;
      best = { phrase, anchor: subject.anchor, relations: subject.relations, before, after: q.slice(end) };
    }
  }
  return best;
}

/** The question asked of the entity a description reaches: its name in the description's place. */
export function substitutedQuestion(description: EmbeddedDescription, entity: string): string {
  return `${description.before}${entity}${description.after}?`;
}

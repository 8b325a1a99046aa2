import { capitalisedEntities } from "./entities";
import { type ChainRelation, readHopChain, readSubject } from "./hops";

/**
 * A question that asks something open of an entity it only describes: "What is the name of the
 * waterfall in the country where the Bubye River is found?" describes Zimbabwe (the country of
 * the Bubye River) and asks, of it, the name of its waterfall. The description is a hop chain
 * ending in an identity (question/hops.ts reads it); what is asked of the entity it reaches is
 * the question with the entity's name in the description's place, read on that entity's page
 * like any single-hop question (answer/description.ts).
 *
 * An entity may also be described by a relative clause ("the woman who portrayed Corliss Archer
 * in the film Kiss and Tell"), read on the page of a name the clause holds.
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
  /**
   * A description by a relative clause ("the woman who portrayed Corliss Archer in the film Kiss
   * and Tell"): the clause, read on the page of a name it holds (the anchor; `relations` empty).
   */
  clause?: { noun: string; text: string; names: string[] };
}

/** Lower-case words a name may hold ("Alexander and the Terrible ...", "The Jewel of the Nile"); any other ends it. */
const NAME_JOINERS = new Set("of the and a an in on for to with at by or de la le du del der von van und".split(" "));

/** The word that asks: of the entity a description names, something must be. */
const QUESTION_WORD = /(?:what|which|who|whom|whose|when|where|how|in what|in which)\b/i;

/** An anchor is a name: each word capitalised, a number, or a joiner ("Aschenbrodel was a citizen" is not). */
function isName(anchor: string): boolean {
  return anchor.split(/\s+/).every((word) => /^[\p{Lu}\p{N}"“'‘(]/u.test(word) || NAME_JOINERS.has(word));
}

/**
 * The longest description inside a question that reads as relations applied to a named anchor,
 * with something asked around it: candidates start and end at any word, and the longest that
 * reads with a name as its anchor wins (it holds the shorter ones). Failing one, a description by
 * a relative clause (readClauseDescription).
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
    for (const end of ends) {
      if (end <= start || (best && end - start <= best.phrase.length)) continue;
      const phrase = q.slice(start, end);
      const subject = readSubject(phrase);
      if (!subject || !isName(subject.anchor)) continue;
      const before = q.slice(0, start);
      // "the country where X was" ends a question, never a clause ("... where X was a citizen"): the rest would be lost.
      if (/\b(?:is|was|are|were)$/i.test(phrase) && end < q.length) continue;
      // Something must be asked of the entity: a question word before the description, or after
      // one that opens the question ("The state where Henry Worrall died has how many districts?").
      const asked = start === 0 ? QUESTION_WORD.test(q.slice(end)) : new RegExp(`^(?:\\p{L}+\\s+)*?${QUESTION_WORD.source}`, "iu").test(before);
      if (!asked) continue;
      best = { phrase, anchor: subject.anchor, relations: subject.relations, before, after: q.slice(end) };
    }
  }
  return best ?? readClauseDescription(q);
}

/** "the woman who portrayed ...", "the film in which ...": an article, a lower-case noun phrase, a relative pronoun. */
const CLAUSE_OPENING = /(?:^|\s)((?:[Tt]he|[Aa]n?)\s+((?:[\p{Ll}-]+\s+){0,3}?[\p{Ll}-]+)\s+(?:who|that|which|whom)\s+)/gu;
const PREPOSITIONS = new Set(["in", "for", "to", "of", "on", "at", "by", "with", "from"]);
/** A name in a clause: capitalised words (with the joiners names hold), a quoted title, or a year after a comma. */
const CLAUSE_NAME =
  /["“][^"”]+["”]|[\p{Lu}\p{N}][\p{L}\p{N}'’.-]*(?:\s+(?:[\p{Lu}\p{N}][\p{L}\p{N}'’.-]*|of|the|and|de)(?=\s+[\p{Lu}\p{N}]|$|[\s,?]))*(?:,\s+\d{4})?/gu;
const ASKS = /\b(?:[Ww]hat|[Ww]hich|[Ww]ho|[Ww]hom|[Ww]hose|[Ww]hen|[Ww]here|[Hh]ow)\b/;
/** A question that opens with what it asks ("Who directed ", "In what year was "): a description may close it. */
const ASKED_BEFORE = /^(?:(?:In|At|On|From|For|To|By|Of|With)\s+)?(?:[Ww]hat|[Ww]hich|[Ww]ho|[Ww]hom|[Ww]hose|[Ww]hen|[Ww]here|[Hh]ow)\b/;

/**
 * A description by a relative clause, which ends with its last name when it closes the question
 * ("What government position was held by the woman who portrayed Corliss Archer in the film Kiss
 * and Tell?"; "Who did the actor who starred as Benton Fraser in Due South have a child with?"
 * keeps "have a child with" asked of him), or with its first name when it opens it ("The football
 * manager who recruited David Beckham managed Manchester United during what timeframe?"). The
 * clause is read on the page of a name it holds (answer/description.ts).
 */
export function readClauseDescription(question: string): EmbeddedDescription | null {
  const q = question
    .trim()
    .replace(/\s*\?+\s*$/, "")
    .replace(/\s+/g, " ");
  for (const match of q.matchAll(CLAUSE_OPENING)) {
    const start = (match.index ?? 0) + match[0].length - match[1]!.length;
    const nounWords = match[2]!.split(" ");
    if (PREPOSITIONS.has(nounWords[nounWords.length - 1]!)) nounWords.pop();
    if (nounWords.length === 0 || nounWords.some((word) => PREPOSITIONS.has(word))) continue;
    const from = start + match[1]!.length;
    const rest = q.slice(from);
    const before = q.slice(0, start);
    const names = [...rest.matchAll(CLAUSE_NAME)].filter((name) => /\p{L}/u.test(name[0]) && !ASKS.test(name[0]));
    if (names.length === 0) continue;
    const closing = ASKED_BEFORE.test(before);
    if (!closing && start !== 0) continue;
    // A clause with its own subject ("in which Jung Joon-young made his debut", "that the singer
    // was known for") is a whole sentence: it runs to the question's end, and cannot open one.
    const ownSubject = match[2]!.split(" ").length > nounWords.length || /^(?:the\s+|a\s+|an\s+)?[\p{Lu}"“]/u.test(rest);
    if (ownSubject && !closing) continue;
    // Closing the question, the clause runs to its last name before anything asked after it; opening it, to its first.
    const asksAfter = rest.search(ASKS);
    const within = names.filter((name) => asksAfter < 0 || (name.index ?? 0) < asksAfter);
    const last = closing ? within[within.length - 1] : within[0];
    if (!last) continue;
    const end = ownSubject ? q.length : from + (last.index ?? 0) + last[0].length;
    const after = q.slice(end);
    if (!closing && !ASKS.test(after)) continue;
    const text = q.slice(from, end);
    const clauseNames = capitalisedEntities(text.replace(/["“”]/g, " , "), { leadingNumbers: false });
    if (clauseNames.length === 0) continue;
    // "Where did the band form that made Maiden Japan?": the question's verb stands between the
    // noun and its clause; it is asked of the entity ("Where did Iron Maiden form?").
    const verb = closing && nounWords.length > 1 && /\b(?:did|does|do)\s*$/i.test(before) ? nounWords.pop()! : null;
    return {
      phrase: q.slice(start, end),
      anchor: clauseNames[clauseNames.length - 1]!,
      relations: [],
      before,
      after: verb ? ` ${verb}${after}` : after,
      clause: { noun: nounWords.join(" "), text, names: clauseNames },
    };
  }
  return null;
}

/** The question asked of the entity a description reaches: its name in the description's place. */
export function substitutedQuestion(description: EmbeddedDescription, entity: string): string {
  // "When did the country where X is located, become …": the comma closed the description, not a
  // clause of the question ("When did Guyana become …").
  const after = /\b(?:did|does|do|was|is|were|are|has|have|had)\s*$/i.test(description.before) ? description.after.replace(/^,\s*/, " ") : description.after;
  return `${description.before}${entity}${after}?`;
}

import { namesPerson, type RankedDoc } from "../evidence";
import { withoutHeading } from "../language";
import { asksAboutSpeech, asksOfSeveralSpeakers, type QueryAnalysis, saidClaim } from "../question";
import { type ActSentence, actSentences, asksForTheFirst, asksWhenSetOut, earliestOf } from "./act-sentences";
import { type AttributedAnswer, attributedAnswer } from "./dated";

/**
 * "Which president / who declared an unconditional war on poverty?" answered from the document
 * itself: the speaker of the speech whose sentence does it (act-sentences.ts), read from its
 * title. The pages that do it must all be one speaker's. The opening quotes the sentence after
 * the speaker and the rest of the title, words the cited page's title holds: "Lyndon B Johnson
 * (State of the Union address, 1964): "This administration today, here and now, declares
 * unconditional war on poverty in America"". "Which presidents mentioned the Panama Canal?" asks
 * for them all: each speaker whose page does it, in rank order, each quoted (up to MAX_SPEAKERS).
 */
export function spokenByAnswer(query: QueryAnalysis, ranked: RankedDoc[]): AttributedAnswer | null {
  // "Which presidents …" reads as asking for entities: names of speakers all the same.
  const several = asksOfSeveralSpeakers(query);
  if (query.expects !== "person" && !(several && query.expects === "entity")) return null;
  if (query.hops || query.comparison || query.options.length > 0) return null;
  if (asksWhoSomeoneIs(query)) return null;
  const found = actSentences(query, ranked, true);
  if (found.length === 0) return null;
  const sameSpeaker = (a: string, b: string) => namesPerson(a, b) || namesPerson(b, a);
  const everySpeaker = (items: ActSentence[]) =>
    answerFrom(items.filter((item, index) => items.findIndex((other) => sameSpeaker(other.speaker, item.speaker)) === index).slice(0, MAX_SPEAKERS));
  // Of the sentences that say what was asked as the question writes it, if any do ("the Great
  // Society" over "a great education … an inclusive society"): every speaker of those when it asks
  // for several; when it asks for one, the earliest if it asks who did it first, else they must
  // all be one speaker's.
  const phrased = found.filter((item) => item.saysPhrase);
  const pool = phrased.length > 0 ? phrased : found;
  if (several) return everySpeaker(pool);
  if (asksForTheFirst(query)) return answerFrom([earliestOf(pool)]);
  // A name set out once ("Which president announced the Fair Deal?"): whoever said it first, when
  // every sentence of the pool says the name as the question writes it. An act several did
  // ("proposed tax cuts") has no one speaker, and stays unanswered below.
  if (asksWhenSetOut(query) && phrased.length > 0 && query.entities.length > 0) return answerFrom([earliestOf(pool)]);
  const best = pool[0]!;
  if (pool.every((item) => sameSpeaker(best.speaker, item.speaker))) return answerFrom([best]);
  // Words several speakers said exactly ("Who said that the state of the Union is strong?") are
  // each one's: all of them answer who said it, each quoted. An act several did ("declared an
  // unconditional war on poverty") or a topic stays unanswered: no one of them is the one asked for.
  return SAID_THAT.test(query.question) && saidClaim(query.question) !== null ? everySpeaker(pool) : null;
}

/**
 * "Who was the first man on the moon?" asks who someone is, not who did something in a speech:
 * Nixon's "put man on the moon" does not make him the answer. A question opening "Who / Which X
 * is / was …" with no clause of its own ("who declared …") and no verb of saying.
 */
function asksWhoSomeoneIs(query: QueryAnalysis): boolean {
  const opening = /^(?:who|which\s+\w+)\s+(?:is|was|are|were)\s+(.*)$/i.exec(query.question.trim());
  return opening !== null && !/\b(?:who|that|which|whom)\b/i.test(opening[1]!) && !asksAboutSpeech(query);
}

/** A question asking who said given words: "said that …", "stated that …". */
const SAID_THAT = /\b(?:say|says|said|state|states|stated)\s+that\b/i;

/** Speakers named in one answer at most: past that a list is no longer read. */
const MAX_SPEAKERS = 6;

/** The speakers of these sentences ("A, B and C"), each sentence quoted after its speaker and the rest of its page's title. */
function answerFrom(items: ActSentence[]): AttributedAnswer {
  return attributedAnswer(
    items,
    (item) => item.speaker,
    (item) => {
      const title = item.entry.doc.title.trim();
      const rest = title.startsWith(`${item.speaker}:`) ? title.slice(item.speaker.length + 1).trim() : title;
      return `${item.speaker} (${rest}): "${withoutHeading(item.passage.text).trim()}"`;
    },
  );
}

import { STOPWORDS, stem, terms, words } from "../language";
import type { QueryAnalysis } from "./query";
import { SAID_WHEN } from "./said-when";

/**
 * What a question says someone said, as the words to look for: "Which president said that we
 * cannot escape history?" → "escape history". A claim is searched as a phrase: its words
 * one by one are common ("escape", "history") and the long speech that says them ranks below
 * short ones that use them apart. Null when the question quotes no claim (two content words at
 * least: "Did Lincoln say anything about slavery?" asks about a topic).
 */
const SAID = /\b(?:say|said|says|declare|declared|state|stated|proclaim|proclaimed)\s+(?:that\s+)?([^,;?!]+)/i;
const DATED_AT_END = new RegExp(String.raw`\s+${SAID_WHEN}\s*$`, "i");
const TOPIC_NOT_CLAIM = /^(?:anything|something|nothing|about|of|on|in|to|the\s+most|most|what|how|when|why|who)\b/i;

export function saidClaim(question: string): string | null {
  const match = SAID.exec(question);
  if (!match || TOPIC_NOT_CLAIM.test(match[1]!.trim())) return null;
  // "declared an unconditional war on poverty in 1964": the year dates the saying, the speech does not say it.
  const claim = claimWords(match[1]!.replace(DATED_AT_END, ""));
  // Stopwords at either end are left out: the claim is said inside a longer sentence.
  while (claim.length > 0 && STOPWORDS.has(claim[0]!)) claim.shift();
  while (claim.length > 0 && STOPWORDS.has(claim[claim.length - 1]!)) claim.pop();
  return claim.filter((word) => !STOPWORDS.has(word)).length >= 2 ? claim.join(" ") : null;
}

/** A text's words as they are looked for in a sentence: "cannot" is as often written "can not". */
export function claimWords(text: string): string[] {
  return words(text).flatMap((word) => (word === "cannot" ? ["can", "not"] : [word]));
}

/** Whether a sentence says a phrase's words (read as `claimWords`) in that order, whole words only. */
export function saysInOrder(sentence: string, phrase: string): boolean {
  return ` ${claimWords(sentence).join(" ")} `.includes(` ${phrase} `);
}

/** Words the question uses for what was said rather than what was done (or for setting it out in words): the speech itself is the act. */
export const SPEECH_VERBS = new Set(
  terms(
    "say said says talk talked speak spoke mention mentioned describe described discuss discussed address addressed call called urge urged outline outlined announce announced set out lay laid warn warned propose proposed recommend recommended ask asked",
  ),
);
/** Words that ask who acted or when, never what was done or said: "Which president …", "In what year …". */
export const ASKS_WHO_OR_WHEN = new Set(
  terms("president presidents person people leader leaders who whom which speaker speakers year years date when time first"),
);

/** "use the phrase …", "coin the term …": the words that follow are what was said. */
const USES_WORDS = /\b(?:use|used|uses|using|coin|coined|coins|utter|uttered)\s+the\s+(?:phrase|words?|terms?|expression|slogan)\b/i;
const WORDS_FOR_WORDS = new Set(terms("use used uses using coin coined coins utter uttered phrase word words term terms expression slogan"));

/** The words of "use the phrase" and the like, when the question says it so (stems): they say the speech is the act, not what it did. */
export function wordsForSaying(question: string): Set<string> {
  return USES_WORDS.test(question) ? WORDS_FOR_WORDS : new Set();
}

/** Whether the question asks about something said ("In which years did Eisenhower speak about …", "… use the phrase …"), by its own verb. */
export function asksAboutSpeech(query: QueryAnalysis): boolean {
  return USES_WORDS.test(query.question) || words(query.question).some((word) => SPEECH_VERBS.has(stem(word)));
}

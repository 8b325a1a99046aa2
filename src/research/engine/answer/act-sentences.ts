import { namesPerson, pageAttribution, type Passage, personAmong, type RankedDoc } from "../evidence";
import { cededToAnother, measureKind } from "../evidence/named-kind";
import { holdsCompound, phraseCompounds, stem, terms, withoutHeading, words } from "../language";
import {
  ASKS_WHO_OR_WHEN,
  asksAboutSpeech,
  claimWords,
  type QueryAnalysis,
  SAID_YEAR,
  SPEECH_VERBS,
  saidClaim,
  saysInOrder,
  wordsForSaying,
} from "../question";

/**
 * The sentences of pages of someone's own words that do what a question asks ("declares
 * unconditional war on poverty"): the act, read from the document itself. Who did it is the
 * page's speaker and when is its year, both read from its title ("Lyndon B Johnson: State of the
 * Union address, 1964"); answer/dated.ts answers "when" from them, answer/spoken-by.ts "who".
 */
export interface ActSentence {
  entry: RankedDoc;
  passage: Passage;
  speaker: string;
  year: number;
  /** The sentence says what was asked as the question writes it (`ActReading.phrase`), not only its words apart. */
  saysPhrase: boolean;
}

/**
 * Words that name who acts or ask when, not what is done, and prepositions the stopwords keep (a
 * band may be called "For Against"): "warn European powers against colonization" is said as
 * "not to be considered as subjects for future colonization by any European powers".
 */
const NOT_THE_ACT = new Set([...ASKS_WHO_OR_WHEN, ...terms("against toward towards")]);
const QUOTATION = /["“”]/;
/** Words that negate what is said (read as words: "isn't" is "isnt"). */
const NEGATIONS = new Set("not no never cannot nor isnt wasnt arent werent dont doesnt didnt wont cant".split(" "));
/** The speaker quoting their own earlier words: "I have said, "…"". */
const SELF_QUOTE = /^(?:[^"“”]*\s)?I\s+(?:have\s+|had\s+)?(?:said|say|stated|declared|repeat(?:ed)?)\s*[,:]?\s*["“]/;
const YEAR = /\b(1\d{3}|20\d{2})\b/;

/** A stem without its final "e": "declares" and "declared" stem to "declare" and "declar". */
const loose = (term: string) => term.replace(/e$/, "");

/** What a question asks was done, read once: its words, split into the act and what it is done to. */
export interface ActReading {
  /** The speakers the question names (only their pages may do it). */
  asked: string[];
  /** Whether a page's speaker is one the question names (any, when it names none). */
  isAsked: (speaker: string) => boolean;
  /** The act's words in the question's order (the first is its verb), loosened. */
  wanted: string[];
  /** Of those, what is done ("axis", "evil") and what it is done to ("iraq", "iran", "north", "korea"). */
  act: string[];
  subjects: string[];
  /** The act's words the question writes side by side ("new federalism", "unconditional war"): said so, not apart. */
  compounds: Set<string>;
  /** The question asks what was said ("talked about", "said that"): the speech is the act, whenever what it tells of was done. */
  spoken: boolean;
  /** The act is negated ("the state of the Union is not good"): its sentence must negate too, whatever stopwords drop. */
  negated: boolean;
  /**
   * What the question says was said, in its words ("era of big government"): only a sentence
   * saying exactly that does it. "Tonight I ask every business leader in America" holds
   * "business" and "America", and does not say the business of America is business.
   */
  claim: string | null;
  /**
   * The act's words as the question writes them, stopwords between included ("atoms for peace"),
   * when they stand together: a sentence saying that is preferred to one holding them apart ("the
   * power of the atom … of the peace").
   */
  phrase: string | null;
  /** A name of several words the question asks about, as words ("peace corps"): a sentence on it says it whole, not "Army Service Corps". */
  name: string | null;
  /** Words a measure's kind is said by in its own time ("purchase": "cession", "acquisition"), any of which holds the kind's word. */
  sayings: Map<string, Set<string>>;
}

/**
 * The act a question asks about, given the speakers of the pages read: its words without the
 * names of the speakers it asks about, words for the actor or the time, speech verbs (the speech
 * itself is the act) and `exclude` (a typed field's own words). Null when fewer than `minWords`
 * are left: one word is too little to tell an act from a mention ("When did Lincoln abolish
 * slavery?"), though enough for what was said ("When did Nixon talk about Watergate?") and for a
 * list of who spoke of it.
 */
export function readAct(query: QueryAnalysis, speakers: string[], exclude: Set<string> = new Set(), minWords = 2): ActReading | null {
  const asked = query.entities.filter((entity) => speakers.some((speaker) => namesPerson(speaker, entity)));
  const nameTerms = new Set(asked.flatMap((person) => words(person).map(stem)));
  // A verb before "that" says what follows was said ("declare that the era of big government is over").
  const tokens = words(query.question);
  const sayingThat = new Set(tokens.flatMap((word, index) => (tokens[index + 1] === "that" ? [stem(word)] : [])));
  const saying = wordsForSaying(query.question);
  const topic = query.terms.filter(
    (term) =>
      !NOT_THE_ACT.has(term) &&
      !SPEECH_VERBS.has(term) &&
      !saying.has(term) &&
      !sayingThat.has(term) &&
      !nameTerms.has(term) &&
      !exclude.has(term) &&
      // A number, or a letter ("U.S." reads as "u" and "s"), is no word of the act.
      !/^\d+$/.test(term) &&
      term.length > 1,
  );
  if (topic.length < minWords) return null;
  const wanted = [...new Set(topic.map(loose))];
  const subjectTerms = new Set(query.entities.filter((entity) => !asked.includes(entity)).flatMap((entity) => words(entity).map((word) => loose(stem(word)))));
  const matchers = asked.map((person) => personAmong(person, speakers));
  const act = wanted.filter((term) => !subjectTerms.has(term));
  const actTerms = new Set(act);
  const name = namePhrase(query.entities.filter((entity) => !asked.includes(entity)));
  return {
    // Loosened as the act's words are: "declared war" is said "declares … war".
    compounds: new Set(
      [...phraseCompounds(words(query.question), (term) => actTerms.has(loose(term)))].map((compound) => compound.split(" ").map(loose).join(" ")),
    ),
    negated: tokens.some((word) => NEGATIONS.has(word)),
    spoken: asksAboutSpeech(query),
    claim: saidClaim(query.question),
    // Else the name asked about, said as one ("the Great Society", not "a great responsibility … a free society").
    phrase: actPhrase(tokens, actTerms) ?? name,
    name,
    sayings: new Map(
      query.entities.flatMap((entity) => {
        const measure = measureKind(entity);
        return measure?.saidAs ? [[loose(measure.kind), new Set(measure.saidAs.map(loose))] as const] : [];
      }),
    ),
    asked,
    isAsked: (speaker) => matchers.length === 0 || matchers.some((matches) => matches(speaker)),
    wanted,
    act,
    subjects: wanted.filter((term) => subjectTerms.has(term)),
  };
}

/**
 * Whether a sentence of `speaker`'s page does the act: of a speaker the question names when it
 * names one, holding every word of the act, quoting no one, and not telling the act in the past
 * ("the Federal Government declared war on poverty" reports it), nor, when the act is being
 * dated (`dating`), an earlier speech: "Two years ago I spoke … of four freedoms" is FDR speaking
 * of them, but in 1943, not when he set them out. What the act is done to need only be on the page
 * (`pageTerms`) when the sentence holds the rest of the act, two words at least: a speech names
 * its subjects in the sentences before the one that acts on them ("States like these … constitute
 * an axis of evil").
 */
export function doesTheAct(reading: ActReading, speaker: string, passage: Passage, pageTerms: () => string[], dating = false): boolean {
  if (!reading.isAsked(speaker)) return false;
  // A quotation is someone else's words, unless the speaker quotes their own ("I have said, "The
  // only thing we have to fear is fear itself""): that says who said it, not when.
  const ownWords = SELF_QUOTE.test(passage.text);
  if (QUOTATION.test(passage.text) && (dating || !ownWords) && !quotesOnlyThePhrase(passage.text, reading.phrase)) return false;
  const { wanted, act, subjects, sayings } = reading;
  if (
    !holdsAll(passage.terms, wanted, sayings) &&
    !(subjects.length > 0 && act.length >= 2 && holdsAll(passage.terms, act, sayings) && holdsAll(pageTerms(), subjects, sayings))
  )
    return false;
  // A purchase said as a cession is one to us: "the cession of … Louisiana to France" (1802) is not the Louisiana Purchase.
  if (reading.sayings.size > 0 && cededToAnother(passage.text)) return false;
  // "a new balance in our system of federalism" holds "new" and "federalism", not "a New Federalism".
  const tokens = words(passage.text);
  if ([...reading.compounds].some((compound) => !holdsCompound(tokens, new Set([compound]), loose))) return false;
  // "the state of the Union is good" does not say it "is not good".
  if (reading.negated && !tokens.some((word) => NEGATIONS.has(word))) return false;
  if (reading.claim !== null && !saysInOrder(passage.text, reading.claim)) return false;
  if (!reading.spoken && TELLS_OF_YEARS_AGO.test(passage.text)) return false;
  return !toldInThePast(passage.text, wanted[0]!) && !(dating && REPORTS_AN_EARLIER_SPEECH.test(passage.text));
}

/** Quotation marks around the asked phrase alone mark a name ("The "Atoms for Peace" proposal …"), not someone else's words. */
function quotesOnlyThePhrase(text: string, phrase: string | null): boolean {
  const quoted = [...text.matchAll(/["“]([^"”]*)["”]/g)].map((match) => claimWords(match[1]!).join(" "));
  return phrase !== null && quoted.length > 0 && quoted.every((words) => words === phrase);
}

/**
 * The act's sentences, one per page at most, in rank order: on pages of someone's own words (the
 * title names the speaker and a year), sentences that do the act (`doesTheAct`) and state no year
 * of their own (the year is the page's).
 *
 * `askingWho`: the question asks who did it, so every entity it names is what the act is done
 * to. Otherwise a question naming someone no page speaks as ("When did Congress pass …") asks of
 * no speaker's act, and gets none.
 */
export function actSentences(query: QueryAnalysis, ranked: RankedDoc[], askingWho: boolean): ActSentence[] {
  const attributed = ranked.map((entry) => ({ entry, attribution: pageAttribution(entry.doc.title) }));
  const speakers = attributed.flatMap(({ attribution }) => (attribution.speaker ? [attribution.speaker] : []));
  if (speakers.length === 0) return [];
  // What was said may be one word ("When did Nixon talk about Watergate?"): the speech is the act.
  const reading = readAct(query, askingWho ? [] : speakers, new Set(), asksAboutSpeech(query) ? 1 : 2);
  if (!reading || (!askingWho && reading.asked.length === 0 && query.entities.length > 0)) return [];
  // "Who signed the treaty with the United States in 1898?": a speech of another year does not do
  // the act the question dates (the 1903 address's "signing of a new commercial treaty with China").
  const dated = askingWho ? SAID_YEAR.exec(query.question) : null;
  const found: ActSentence[] = [];
  for (const { entry, attribution } of attributed) {
    const { speaker, year } = attribution;
    if (!speaker || year === null) continue;
    if (dated && year !== Number(dated[1])) continue;
    const pageTerms = () => entry.doc.passages.flatMap((passage) => passage.terms);
    const doing = entry.doc.passages.filter((candidate) => !YEAR.test(candidate.text) && doesTheAct(reading, speaker, candidate, pageTerms, !askingWho));
    const phrase = reading.phrase;
    // Said in the sentence's own words, not only in a heading run into it ("TOWARD THE GREAT SOCIETY World affairs …").
    const passage = (phrase ? doing.find((candidate) => saysInOrder(withoutHeading(candidate.text), phrase)) : undefined) ?? doing[0];
    if (passage) found.push({ entry, passage, speaker, year, saysPhrase: phrase !== null && saysInOrder(withoutHeading(passage.text), phrase) });
  }
  return found;
}

/** The question asks who or when it was first done ("Which president first proposed …", "When did X first …"). */
export function asksForTheFirst(query: QueryAnalysis): boolean {
  return /\bfirst\b/i.test(query.question);
}

/** Verbs of setting something out, which is done once: announce, propose, call for, unveil, introduce, launch, outline, coin, set or lay out. */
const SETS_OUT = /\b(?:announc\w*|propos\w*|call(?:s|ed)?\s+for|unveil\w*|introduc\w*|launch\w*|outlin\w*|coin\w*|(?:set|sets|lay|lays|laid)\s+out)\b/i;

/**
 * The question asks who set something out or when ("What year did Johnson announce the war on
 * poverty?"), not in which years ("In which years …" asks for each): later speeches speak of it
 * again, they do not announce it again.
 */
export function asksWhenSetOut(query: QueryAnalysis): boolean {
  return SETS_OUT.test(query.question) && !/\byears\b/i.test(query.question);
}

/** The earliest of these sentences, by their page's year. */
export function earliestOf(items: ActSentence[]): ActSentence {
  return items.reduce((earliest, item) => (item.year < earliest.year ? item : earliest));
}

/** The first name of several words among these, as words ("great society"): null when none. */
function namePhrase(names: string[]): string | null {
  // Not initials ("U.S." is "u s"): a name of words.
  const name = names
    .map((entity) => claimWords(entity))
    .find((tokens) => tokens.length > 1 && tokens.length <= PHRASE_WORDS && tokens.some((token) => token.length > 1));
  return name ? name.join(" ") : null;
}

/** Longest span of words between two act words: past it, they are not one phrase. */
const PHRASE_WORDS = 5;

/** The question's words from its first act word to its last, when they are few and more than one ("atoms for peace"). */
function actPhrase(tokens: string[], actTerms: Set<string>): string | null {
  const at = tokens.flatMap((word, index) => (actTerms.has(loose(stem(word))) ? [index] : []));
  if (at.length < 2) return null;
  const span = tokens.slice(at[0], at[at.length - 1]! + 1);
  return span.length <= PHRASE_WORDS ? span.join(" ") : null;
}

/** Does a passage's (or page's) terms hold every wanted (loosened) term, or a word it is said by? */
function holdsAll(held: string[], wanted: string[], sayings: Map<string, Set<string>>): boolean {
  const loosened = new Set(held.map(loose));
  return wanted.every((term) => loosened.has(term) || [...(sayings.get(term) ?? [])].some((word) => loosened.has(word)));
}

/**
 * A sentence that tells of an earlier speech rather than being one: "Two years ago I spoke in my
 * Annual Message of four freedoms" (1943) dates a mention, not the 1941 address that set them out,
 * and "I have repeatedly recommended national health insurance" (1952) not when it was proposed.
 */
const REPORTS_AN_EARLIER_SPEECH =
  /\b(?:ago|(?:I|we)\s+(?:(?:have|had)\s+(?:\w+ly\s+)?)?(?:spoke|spoken|said|told|talked|described|mentioned|called|urged|proposed|asked|recommended|warned))\b/i;

/**
 * A sentence telling what was done years ago does not do it: "Some years ago, the Federal
 * Government declared war on poverty" (Reagan, 1988) does not declare it, though it talks about
 * it (a question asking who spoke of it takes it).
 */
const TELLS_OF_YEARS_AGO = /\bago\b/i;

/** The act's verb (the first word of what is asked) written in the past in the sentence: it reports the act. */
function toldInThePast(text: string, verb: string): boolean {
  return words(text).some((word) => word.length > 4 && word.endsWith("ed") && loose(stem(word)) === loose(verb));
}

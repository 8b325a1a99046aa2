import type { Evidence, RankedDoc } from "../evidence";
import { bareTitle } from "../evidence";
import { capitalisedEntities, NOT_NAMES, type QueryAnalysis } from "../question";
import type { Passage } from "../evidence";
import { withRelations } from "../language";
import { askedKind, kindOfName } from "./name-kind";
import { COUNT, countedNouns, measureYears, ofAskedYear, statesCountAt } from "./counts";
import { abbreviated, namesOfficeOnly, namesSeveralOfficeHolders, titlesBefore } from "./names";
import { namesNationality } from "./places";
import { fold, MONTHS, saysPhrase, stem, STOPWORDS, terms, words } from "../language";

/**
 * The short answer of an open question, found in the best passages: the span of the asked type
 * (a place for "where", a year for "what year", a count for "how many", a name for "who"/"which")
 * nearest to what the question asks, in the pages the question leads to.
 */
export interface AnswerSpan {
  text: string;
  passage: Passage;
  /** Where in the passage's text the span stands (characters). */
  index?: number;
  score: number;
  /** Its score's share of its own and the runner-up's (1 when no other span scored): how clearly it won. */
  share?: number;
  /** The span that scored next (its share: of the two scores, its own), which the answer model may find likelier. */
  runnerUp?: AnswerSpan;
}

/** A month as dates write it, whole or cut short ("Dec. 10, 1817"). */
const MONTH = `(?:${MONTHS}|(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\\.)`;
/** "July 16, 1966", "16 July 1966", "July 1966", "Dec. 10, 1817". */
const DATE = `${MONTH} \\d{1,2}, \\d{4}|\\d{1,2} ${MONTH} \\d{4}|${MONTH} \\d{4}`;
const FULL_DATE = new RegExp(`\\b(?:${DATE})\\b`, "g");
const MONTH_START = new RegExp(`^(?:${MONTHS})\\b`);
const YEAR = /\b(1\d{3}|20\d{2})s?\b/g;

/** A unit a measure is stated in ("6.8 inches", "1,400 metres"): it belongs to the answer. */
const MEASURE_UNIT =
  /^(?:inch|inches|feet|foot|ft|yards?|miles?|metres?|meters?|m|km|kilometres?|kilometers?|cm|mm|kg|kilograms?|grams?|pounds?|lb|lbs|tons?|tonnes?|acres?|hectares?|percent|degrees?|°[CF]|mph|km\/h|knots?|litres?|liters?|gallons?|years?)$/i;

/** Places read as "in X", "at X", "near X", "from X". */
const PLACE_CUE = /\b(?:in|at|near|from)\s+(?:the\s+)?$/i;
const PERSON_CUE = /\b(?:by|married(?: to)?|wife|husband|son of|daughter of|with|to|and)\s+$/i;
const TIME_CUE = /\b(?:in|on|since|from|until|by|of)\s+$/i;

/** How many passages per page, and pages, answers are looked for in. */
const PASSAGES_PER_DOC = 4;
const DOCS = 6;

/** What a count question counts, read once per question: the nouns a count is stated with, and the years that date it (answer/counts.ts). */
interface CountAsked {
  nouns: ReadonlySet<string>;
  years: ReadonlySet<string>;
}

function spansOfType(text: string, query: QueryAnalysis, counted: CountAsked): { text: string; index: number }[] {
  const out: { text: string; index: number }[] = [];
  const type = query.expects;
  if (type === "date" || type === "year") {
    for (const match of text.matchAll(FULL_DATE)) out.push({ text: match[0], index: match.index ?? 0 });
    if (type === "year" || out.length === 0) for (const match of text.matchAll(YEAR)) out.push({ text: match[0], index: match.index ?? 0 });
    return out;
  }
  if (type === "number") {
    const asked = new Set(query.focusTerms);
    for (const match of text.matchAll(COUNT)) {
      const index = match.index ?? 0;
      // A bare year is not a count ("in 1990"), unless the count is of years.
      if (/^(1\d{3}|20\d{2})$/.test(match[0]) && !asked.has("year")) continue;
      // Where the question says what it counts, only a number stated as that count answers it.
      if (counted.nouns.size > 0 && (!statesCountAt(text, index, match[0], counted.nouns) || !ofAskedYear(text, counted.years, index))) continue;
      // The counted noun comes along when the question asks for it ("1,462 hypermarkets"), whole
      // when the question names it in two words ("4 congressional districts").
      const next = /^\s+([\p{L}-]+)(?:\s+([\p{L}-]+))?/u.exec(text.slice(index + match[0].length));
      const isAsked = (word: string | undefined) => word !== undefined && asked.has(stem(word.toLowerCase()));
      const noun =
        next &&
        (isAsked(next[1]) ||
          /^(people|seated|seats|inhabitants|residents|members|employees|students|copies|episodes|stores|times)$/i.test(next[1]!) ||
          MEASURE_UNIT.test(next[1]!))
          ? isAsked(next[1]) && isAsked(next[2])
            ? ` ${next[1]} ${next[2]}`
            : ` ${next[1]}`
          : "";
      out.push({ text: `${match[0]}${noun}`, index });
    }
    return out;
  }
  // Names come in the order they stand: each is looked for after the one before, so a name said
  // twice is read where it stands ("based in Philadelphia" after "The Philadelphia Eagles"), not
  // at its first mention, whose words before it are another name's.
  let cursor = 0;
  for (const entity of capitalisedEntities(text, { leadingNumbers: false })) {
    const after = text.indexOf(entity, cursor);
    const index = after >= 0 ? after : text.indexOf(entity);
    if (index >= 0) cursor = index + entity.length;
    // "Tennessee's", "Germany-born": a possessive or a birthplace adjective names no answer itself.
    if (/(?:['’]s|-born)$/u.test(entity)) continue;
    // "(Hangul: 위너)", "(Chinese: …)": a label before a gloss names nothing asked.
    if (index >= 0 && text.startsWith(":", index + entity.length)) continue;
    // "Hon. Winnie Kiiza", "President Mohamud": a person is named without the courtesy or office before the name.
    const titles = type === "person" ? titlesBefore(entity) : 0;
    out.push({ text: entity.slice(titles), index: Math.max(index, 0) + titles });
  }
  for (const match of text.matchAll(/["“]([^"”]{2,80})["”]/g)) out.push({ text: match[1]!, index: (match.index ?? 0) + 1 });
  return out;
}

/** Word positions in a text of the question's asked terms (focus terms and their relation words). */
function askedPositions(text: string, asked: Set<string>): number[] {
  const positions: number[] = [];
  words(text).forEach((word, index) => {
    if (asked.has(stem(word))) positions.push(index);
  });
  return positions;
}

const DATE_OR_YEAR = `(?:${DATE})|\\d{4}`;
const LIFESPAN = new RegExp(`\\((?:[^()]*?;\\s*)?(born\\s+)?(${DATE_OR_YEAR})(?:\\s*[–-]\\s*(${DATE_OR_YEAR}))?\\)?`);
const BIRTH = new Set(["born", "birth"].map(stem));
const DEATH = new Set(["died", "death", "die"].map(stem));

/**
 * "James Madison (March 16, 1751 – June 28, 1836) was ...": the dates after a person's name are
 * their birth and death, though no word says so. Where a date question asks either, that date
 * stands where the asked word would.
 */
function lifeDatePositions(text: string, asked: Set<string>, query: QueryAnalysis): number[] {
  if (query.expects !== "date" && query.expects !== "year") return [];
  const match = LIFESPAN.exec(text);
  // "(born 1970)" or "(1751 – 1836)"; a bare "(1975)" after a title is not a life.
  if (!match || (!match[1] && !match[3])) return [];
  const out: number[] = [];
  const at = (group: number) => words(text.slice(0, (match.index ?? 0) + match[0].lastIndexOf(match[group]!))).length;
  if ([...asked].some((term) => BIRTH.has(term))) out.push(at(2));
  if (match[3] && [...asked].some((term) => DEATH.has(term))) out.push(at(3));
  return out;
}

const NOTHING_COUNTED: CountAsked = { nouns: new Set(), years: new Set() };

/** Looks in the best pages, the chain's end (`preferred`, where a multi-hop answer usually is) counting most. */
export function findAnswer(query: QueryAnalysis, ranked: RankedDoc[], entities: string[], evidence: Evidence, preferred?: RankedDoc): AnswerSpan | null {
  if (query.expects === "yes_no" || query.expects === "choice" || query.expects === "description") return null;
  const wanted = askedKind(query);
  const counted = query.expects === "number" ? { nouns: countedNouns(query.question), years: measureYears(query.question) } : NOTHING_COUNTED;
  const questionWords = new Set(words(query.question));
  const questionEntityKeys = entities.map((entity) => words(entity).join(" "));
  // What the answer's sentence should speak of: the asked terms without the relations that only
  // lead to the answer's page ("director" in "where did the director of X die").
  const answerTerms = query.focusTerms.filter((term) => !query.linkTerms.includes(term));
  const own = answerTerms.length > 0 ? answerTerms : query.focusTerms;
  const asked = withRelations(own);
  // A place, date, year, count or person is only an answer in a sentence that says what is asked.
  const needsContext = query.expects !== "entity";
  // A name right after a link relation ("the Russian author Leo Tolstoy", "directed by X") is the
  // bridge to the answer's page, not the answer.
  const linkWords = withRelations(query.linkTerms);
  const topDoc = Math.max(ranked[0]?.score ?? 0, 1e-9);
  const votes = new Map<string, AnswerSpan>();
  // An entity through which a page was reached is the link of a chain, not its end: "the woman
  // who portrayed Corliss Archer" is Shirley Temple, and the answer is on her page.
  const links = new Set(ranked.filter((entry) => entry.via).map((entry) => words(entry.via!.entity).join(" ")));
  const noun = new Set(query.askedNoun);
  const countsOfEntity = query.expects === "number" && questionEntityKeys.length > 0;
  const partners = partnersAsked(query.question, entities);
  const pages = preferred && !ranked.slice(0, DOCS).includes(preferred) ? [preferred, ...ranked.slice(0, DOCS)] : ranked.slice(0, DOCS);
  const inCharge = /\bin charge of\b/i.test(query.question);
  for (const entry of pages) {
    if (
      inCharge &&
      namesSeveralOfficeHolders(
        entry.doc.passages.map((passage) => passage.text),
        bareTitle(entry.doc.title),
      )
    )
      continue;
    // A page's subject is not the answer when the page was reached as a hop or named by the question.
    const subject = words(bareTitle(entry.doc.title)).join(" ");
    const top = Math.max(entry.best[0]?.score ?? 0, 1e-9);
    const docFactor = entry === preferred ? 1.5 : Math.max(0.2, entry.score / topDoc) * (entry.via ? 1.5 : 1);
    // The chain's end is read from its opening sentence too, where a person's dates stand.
    const opening = entry === preferred ? entry.best.find((item) => item.passage.position === 0) : undefined;
    const items =
      opening && !entry.best.slice(0, PASSAGES_PER_DOC).includes(opening)
        ? [...entry.best.slice(0, PASSAGES_PER_DOC), opening]
        : entry.best.slice(0, PASSAGES_PER_DOC);
    // A count is of what holds it: a page about a name the question counts of, a page a link led
    // to, or a sentence naming it ("the population of the United States was …"); not a count of
    // something else on a page about neither ("serving a population of 1,801,524").
    const pageNamesEntity = countsOfEntity && (entry.via !== undefined || questionEntityKeys.some((key) => saysPhrase(entry.doc.title, key)));
    for (const item of items) {
      const text = item.passage.text;
      if (countsOfEntity && !pageNamesEntity && !questionEntityKeys.some((key) => saysPhrase(text, key))) continue;
      const lifeDates = lifeDatePositions(text, asked, query);
      const weight = item.score > 0 ? item.score : item === opening && lifeDates.length > 0 ? top * 0.5 : 0;
      if (weight <= 0) continue;
      const positions = [...askedPositions(text, asked), ...lifeDates];
      if (needsContext && positions.length === 0) continue;
      for (const span of spansOfType(text, query, counted)) {
        const spanWords = words(span.text);
        if (spanWords.length === 0) continue;
        const key = fold(span.text).toLowerCase();
        const joined = spanWords.join(" ");
        // The question's own names (and words that are all stopwords) are not its answer.
        if (spanWords.every((word) => questionWords.has(word) || STOPWORDS.has(word))) continue;
        if (questionEntityKeys.includes(joined) || NOT_NAMES.has(key)) continue;
        // "What currency …" is answered by a currency's name, never "EU" of "19 EU member states".
        if (missesClosedNoun(query.askedNoun, spanWords)) continue;
        // "What nationality is X?" asks a demonym or a country, never another name on X's page ("E Street Band").
        if (query.hops?.attribute === "nationality" && !namesNationality(span.text)) continue;
        // "Who was in charge": the office's name ("Prime Minister") is not who held it, nor is a
        // short form in brackets ("Leader of Opposition (LOP)", "Bigg Boss Kannada 5 (BBK5)").
        if (query.expects === "person" && (namesOfficeOnly(span.text) || abbreviated(text, span.index, span.text) !== null)) continue;
        if (query.expects !== "number" && query.expects !== "date" && query.expects !== "year" && (/^\d/.test(span.text) || MONTH_START.test(span.text)))
          continue;
        const before = text.slice(Math.max(0, span.index - 25), span.index);
        const cue =
          query.expects === "place"
            ? PLACE_CUE.test(before)
            : query.expects === "person"
              ? PERSON_CUE.test(before)
              : query.expects === "date" || query.expects === "year"
                ? TIME_CUE.test(before)
                : true;
        // A place is named as one: "in X", "at X", "near X", "from X".
        if (query.expects === "place" && !cue) continue;
        // Near what is asked: distance in words from the span to the nearest asked term.
        const spanAt = words(text.slice(0, span.index)).length;
        const distance = positions.length > 0 ? Math.min(...positions.map((position) => Math.abs(position - spanAt))) : 12;
        const proximity = positions.length > 0 ? 1 / (1 + distance / 6) : 0.3;
        const typeFit = query.expects === "person" ? (spanWords.length >= 2 && spanWords.length <= 4 ? 1.2 : 0.8) : 1;
        const bridge = askedPositions(text.slice(0, span.index), linkWords).some((position) => position >= spanAt - 3);
        const link =
          bridge || links.has(joined) || (subject.length > 0 && joined.includes(subject) && (entry.via || questionEntityKeys.includes(subject))) ? 0.1 : 1;
        const nounFit = cuesAskedNoun(query.askedNoun, spanWords) ? 2 : 1;
        // A name of another kind than asked ("National Football League" for "based in what
        // state") is the commonest wrong span: it counts for less, the kind read from its own page
        // or its words.
        const spanKind = wanted ? kindOfName(span.text, evidence) : null;
        const kindFit = spanKind !== null && spanKind !== wanted ? 0.3 : 1;
        // "Who sang Up Where We Belong with Joe Cocker?": the name the sentence joins to his
        // ("recorded by Joe Cocker and Jennifer Warnes"), not one nearer the title ("written by … Will Jennings").
        const partner = partners.some((name) => joinedTo(text, name, span.text)) ? 3 : 1;
        const score =
          (weight / top) * docFactor * (cue ? 1.5 : 1) * (0.5 + proximity) * typeFit * link * nounFit * kindFit * partner * definitionFit(text, span, noun);
        const previous = votes.get(key);
        if (previous) previous.score += score * 0.5;
        else votes.set(key, { text: span.text, passage: item.passage, index: span.index, score });
      }
    }
  }
  const [best, second] = [...votes.values()].sort((a, b) => b.score - a.score);
  if (!best) return null;
  const total = best.score + (second?.score ?? 0);
  return { ...best, share: best.score / total, runnerUp: second ? { ...second, share: second.score / total } : undefined };
}

/** The question's names it asks a partner of: "who sang X with Joe Cocker", "who starred alongside Y". */
function partnersAsked(question: string, entities: readonly string[]): string[] {
  return entities.filter((entity) => saysPhrase(question, `with ${entity}`) || saysPhrase(question, `alongside ${entity}`));
}

/** A sentence joins two names as partners: "Joe Cocker and Jennifer Warnes", "Jennifer Warnes with Joe Cocker". */
function joinedTo(text: string, name: string, span: string): boolean {
  return [`${name} and ${span}`, `${span} and ${name}`, `${name} with ${span}`, `${span} with ${name}`].some((pair) => saysPhrase(text, pair));
}

/** Whether a span's words (lower case) say the kind of thing the question's noun asks for ("Chief of Protocol" for "what government position"). */
export function cuesAskedNoun(askedNoun: readonly string[], spanWords: readonly string[]): boolean {
  return askedNoun.some((term) => (NOUN_CUES[term] ?? CLOSED_NOUNS[term])?.some((cue) => spanWords.includes(cue)));
}

/**
 * Nouns whose every name says one of a few words: a currency's name says its unit ("Finnish
 * markka", "pound sterling", "United States dollar"). A span without one is not of the kind asked.
 */
const CLOSED_NOUNS = cuesByNoun([
  [
    "currency currencies",
    "dollar dollars pound pounds sterling euro euros franc francs mark marks markka peso pesos lira lire rupee rupees yen yuan renminbi krona kronor krone kroner rouble ruble roubles rubles shilling shillings dinar dinars dirham rand escudo guilder gulden drachma peseta zloty forint koruna leu lev real reais baht won rupiah ringgit riyal rial kwacha naira cedi birr leone taka kyat dong",
  ],
]);

/** Whether the question asks for a noun whose names all say a word of its kind, and the span says none. */
export function missesClosedNoun(askedNoun: readonly string[], spanWords: readonly string[]): boolean {
  const head = askedNoun[askedNoun.length - 1];
  const cues = head ? CLOSED_NOUNS[head] : undefined;
  return cues !== undefined && !spanWords.some((word) => cues.includes(word));
}

/** Each noun of a group ("nouns", space-separated) with the words of its group ("cues"). */
function cuesByNoun(groups: [string, string][]): Record<string, string[]> {
  return Object.fromEntries(groups.flatMap(([nouns, cues]) => nouns.split(" ").map((noun) => [noun, cues.split(" ")])));
}

/** Words that mark a span as the kind of thing a question's noun asks for ("what government position" -> "Chief of Protocol"). */
const NOUN_CUES = cuesByNoun([
  [
    "position office post title role job",
    "ambassador secretary chief minister governor president senator mayor judge chairman officer representative commissioner director chancellor",
  ],
  ["team club", "fc united city athletic rovers"],
  ["university college school", "university college school institute academy"],
  ["company firm corporation business", "inc corporation company group ltd records entertainment"],
  ["river lake mountain", "river lake mount mountain"],
  // "Victoria Falls" for "the waterfall in Zimbabwe": the compound's head is its own word.
  ["waterfall waterfalls", "falls fall cascade cascades"],
]);

/**
 * "Animorphs is a science fantasy series of young adult books" answers "what science fantasy
 * young adult series ...": a span that opens a sentence defining it as the asked noun.
 */
function definitionFit(text: string, span: { text: string; index: number }, noun: Set<string>): number {
  if (noun.size === 0 || span.index > 2) return 1;
  const after = text.slice(span.index + span.text.length);
  const definition = /^\s*(?:\([^)]*\)\s*)?(?:,[^,]*,\s*)?(?:is|was|are|were)\s+(?:a|an|the|one)\b/i.exec(after);
  if (!definition) return 1;
  const predicate = new Set(terms(after.slice(0, 160)));
  const shared = [...noun].filter((term) => predicate.has(term)).length;
  return 1 + (2 * shared) / noun.size;
}

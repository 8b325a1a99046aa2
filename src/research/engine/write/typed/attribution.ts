import { namesPerson, pageAttribution } from "../../evidence";
import { stem, terms, withRelations, words } from "../../language";
import type { Found } from "./basis";
import type { CitedPassage, Confidence, TypedEvidence } from "./evidence";
import type { Field } from "./field";

/**
 * What a document says about itself, as the typed output's values: who speaks in it and
 * when. A field that asks who ("president", "speaker", "names") takes a name, never a sentence: the
 * engine's short answer when it is a name, or the speaker of the page whose sentence does what the
 * question asks, when that sentence is the speaker's own ("This administration today, here and now,
 * declares unconditional war on poverty in America" in Lyndon B Johnson's 1964 address is
 * Johnson's declaration; "I heard a great American President, Harry S. Truman, declare this: ..."
 * quotes someone else). A year field takes the date of that page when the sentence is its
 * speaker's act and states no year of its own.
 */

/** Words of a field that ask for a person. */
const PERSON_FIELD =
  /\b(who|whom|persons?|people|presidents?|speakers?|authors?|writers?|leaders?|winners?|founders?|politicians?|senators?|governors?|kings?|queens?|candidates?|officials?|rulers?|orators?|inventors?|directors?|actors?|actresses?|singers?|composers?|artists?|players?|spouses?|husbands?|wives|wife|fathers?|mothers?|chancellors?|ministers?|secretar(?:y|ies)|chairm[ae]n|ceos?)\b/i;
/** Words of a field that ask for a place. */
const PLACE_FIELD =
  /\b(places?|cit(?:y|ies)|towns?|countr(?:y|ies)|states?|nations?|capitals?|locations?|birthplaces?|regions?|provinces?|count(?:y|ies)|villages?|islands?|continents?|venues?)\b/i;
/** A bare "name(s)" field: a name of whatever the question asks about. */
const NAME_FIELD = /\b(names?|named|who)\b/i;

const spacedName = (field: Field) => field.name.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[_\-.]+/g, " ");

/** The field asks for a person's name ("president", "speakers", "author_name"). */
export function isPersonField(field: Field): boolean {
  return PERSON_FIELD.test(spacedName(field)) || (NAME_FIELD.test(spacedName(field)) && field.terms.every((term) => !PLACE_FIELD.test(term)));
}

/** The field holds a name (of a person, a place, or whatever the question asks about), never a sentence. */
export function isNameField(field: Field): boolean {
  const name = spacedName(field);
  return PERSON_FIELD.test(name) || PLACE_FIELD.test(name) || NAME_FIELD.test(name);
}

/** Words the question uses for what was said rather than what was done: the speech itself is the act. */
const SPEECH_VERBS = new Set(
  terms("say said says talk talked speak spoke mention mentioned describe described discuss discussed address addressed call called urge urged"),
);
/** Words that name who acts, not what is done ("Which president declared ..."). */
const ACTOR_WORDS = new Set(terms("president presidents person people leader leaders who speaker speakers"));
/** Words that ask when, not what. */
const WHEN_WORDS = new Set(terms("year years date when time"));

/** Quotation marks: a sentence holding a quotation reports someone else's words. */
const QUOTATION = /["“”]/;

interface OwnAct {
  item: CitedPassage;
  speaker: string;
  year: number | null;
}

/**
 * What the question asks was done, said about or named: its terms without the names of the
 * speakers it asks about, question words, words for the actor and speech verbs.
 */
function topicTerms(evidence: TypedEvidence, field: Field, speakers: string[]): string[] {
  const own = new Set(field.terms);
  const speakerWords = new Set(speakers.flatMap((person) => words(person).map(stem)));
  return evidence.query.terms.filter(
    (term) => !own.has(term) && !ACTOR_WORDS.has(term) && !WHEN_WORDS.has(term) && !SPEECH_VERBS.has(term) && !speakerWords.has(term) && !/^\d+$/.test(term),
  );
}

/**
 * The cited sentences that are their page's speaker's own act of what the question asks: a page
 * of someone's own words (its title names the speaker), a sentence quoting no one, holding every
 * word of the question's topic, and not telling it in the past
 * ("the Federal Government declared war on poverty" reports an act; "declares" does it). A
 * question that names a person only takes that person's pages. The brief's own sentences first.
 */
export function ownActs(evidence: TypedEvidence, field: Field): OwnAct[] {
  // A question naming a speaker ("In which year did Lyndon Johnson declare ...") takes only that speaker's pages.
  const attributions = new Map(evidence.sources.map(({ index, source }) => [index, pageAttribution(source.title, source.published_at)]));
  const speakerOf = (index: number) => attributions.get(index) ?? null;
  const asked = evidence.query.entities.filter((person) => evidence.sources.some(({ index }) => namesPerson(speakerOf(index)?.speaker ?? "", person)));
  const topic = topicTerms(evidence, field, asked);
  if (topic.length === 0) return [];
  const wanted = new Set(topic.map(loose));
  const out: OwnAct[] = [];
  for (const item of evidence.passages) {
    const attribution = speakerOf(item.source);
    const speaker = attribution?.speaker;
    if (!attribution || !speaker || QUOTATION.test(item.passage.text)) continue;
    if (asked.length > 0 && !asked.some((person) => namesPerson(speaker, person))) continue;
    const year = attribution.year;
    const held = new Set(item.passage.terms.map(loose).filter((term) => wanted.has(term))).size;
    if (held < wanted.size || toldInThePast(item.passage.text, topic[0]!)) continue;
    out.push({ item, speaker, year });
  }
  return out.sort((a, b) => Number(b.item.inBrief) - Number(a.item.inBrief));
}

/** A stem without its final "e": "declares" and "declared" stem to "declare" and "declar". */
const loose = (term: string) => term.replace(/e$/, "");

/**
 * The question's first topic word (its verb: "declared an unconditional war", "issue the
 * proclamation") written in the past in the sentence ("the Federal Government declared war on
 * poverty"): the sentence reports the act instead of doing it.
 */
function toldInThePast(text: string, verb: string): boolean {
  return words(text).some((word) => word.length > 4 && word.endsWith("ed") && loose(stem(word)) === loose(verb));
}

/** The page's attribution is read, not stated in the sentence: never `high`. */
const confidenceOf = (act: OwnAct): Confidence => (act.item.inBrief ? "medium" : "low");

/** Each speaker once, best first: the names of a person field. */
export function speakerCandidates(evidence: TypedEvidence, field: Field): Found[] {
  const seen: string[] = [];
  const out: Found[] = [];
  for (const act of ownActs(evidence, field)) {
    if (seen.some((name) => namesPerson(name, act.speaker) || namesPerson(act.speaker, name))) continue;
    seen.push(act.speaker);
    out.push({ value: act.speaker, support: [{ source: act.item.source, passage: act.item.passage, confidence: confidenceOf(act) }] });
  }
  return out;
}

/** The year of each page whose sentence is its speaker's act (and states no year itself), best first. */
export function actYearCandidates(evidence: TypedEvidence, field: Field): Found[] {
  const out: Found[] = [];
  for (const act of ownActs(evidence, field)) {
    if (act.year === null || /\b(1\d{3}|20\d{2})\b/.test(act.item.passage.text)) continue;
    out.push({ value: act.year, support: [{ source: act.item.source, passage: act.item.passage, confidence: confidenceOf(act) }] });
  }
  return out;
}

/** The full date of each page whose sentence is its speaker's act, when the page states its date (published_at): a bare year is never a date. */
export function actDateCandidates(evidence: TypedEvidence, field: Field): Found[] {
  const out: Found[] = [];
  for (const act of ownActs(evidence, field)) {
    const source = evidence.sources.find((entry) => entry.index === act.item.source)?.source;
    const day = /^(\d{4}-\d{2}-\d{2})/.exec(source?.published_at ?? "");
    if (!day || Number(day[1]!.slice(0, 4)) !== act.year) continue;
    out.push({ value: day[1]!, support: [{ source: act.item.source, passage: act.item.passage, confidence: confidenceOf(act) }] });
  }
  return out;
}

/** A name: a few words, no sentence ("Lyndon B Johnson", "Salsomaggiore Terme", "the Soviet Union"). */
export function isNameValue(value: string): boolean {
  const trimmed = value.trim();
  const count = words(trimmed).length;
  return count > 0 && count <= 8 && trimmed.length <= 80 && !/[.!?;:]\s|[.!?]$|[“”"]/.test(trimmed.replace(/\b\p{Lu}\./gu, "X"));
}

/**
 * The engine's short answer as a name field's value, when it is a name of the kind the field asks
 * (a person for a person field; what the question expects for a bare name), through a cited
 * passage that holds it word for word.
 */
export function answerCandidate(evidence: TypedEvidence, field: Field): Found[] {
  const answer = evidence.answer;
  if (!answer || !isNameValue(answer.text) || /^(yes|no)$/i.test(answer.text.trim())) return [];
  const expects = evidence.query.expects;
  if (
    isPersonField(field)
      ? expects !== "person"
      : PLACE_FIELD.test(spacedName(field))
        ? expects !== "place"
        : !["person", "place", "entity", "choice"].includes(expects)
  )
    return [];
  const needle = answer.text.trim().toLowerCase();
  const item = evidence.passages.find((entry) => answer.citations.includes(entry.source) && entry.passage.text.toLowerCase().includes(needle));
  if (!item) return [];
  return [
    {
      value: answer.text.trim(),
      support: [{ source: item.source, passage: item.passage, confidence: answer.confidence === "high" && item.inBrief ? "high" : "medium" }],
    },
  ];
}

/** A model's value for a name field: a name one of the candidates gives, or a name a cited passage holds word for word. */
export function supportedName(field: Field, evidence: TypedEvidence, value: string, candidates: Found[]): Found | null {
  if (!isNameValue(value)) return null;
  const same = candidates.find(
    (entry) => typeof entry.value === "string" && (namesPerson(entry.value, value) || entry.value.toLowerCase() === value.trim().toLowerCase()),
  );
  if (same) return { value, support: same.support };
  if (isPersonField(field)) return null;
  const needle = value.trim().toLowerCase();
  const item =
    needle.length >= 3 ? evidence.relevant(withRelations(field.terms)).find((entry) => entry.passage.text.toLowerCase().includes(needle)) : undefined;
  return item ? { value, support: [{ source: item.source, passage: item.passage, confidence: "low" }] } : null;
}

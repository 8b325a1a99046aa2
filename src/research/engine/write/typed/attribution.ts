import { namesPerson } from "../../evidence";
import { withRelations, words } from "../../language";
import { doesTheAct, readAct } from "../../answer/act-sentences";
import { asksAboutSpeech, saysInOrder } from "../../question";
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

interface OwnAct {
  item: CitedPassage;
  speaker: string;
  year: number | null;
}

/**
 * The cited sentences that are their page's speaker's own act of what the question asks (the
 * rules of answer/act-sentences.ts: "declares unconditional war on poverty" does it, "the Federal
 * Government declared war on poverty" reports it, a sentence quoting someone does not). A question
 * that names a person only takes that person's pages. The brief's own sentences first. `dating`:
 * the act's year or date is asked, so a speaker quoting their own words ("I have said, "…"") or
 * telling of an earlier speech does not do it then.
 */
export function ownActs(evidence: TypedEvidence, field: Field, dating = false): OwnAct[] {
  const attributions = evidence.attributions();
  const speakers = [...attributions.values()].flatMap((attribution) => (attribution.speaker ? [attribution.speaker] : []));
  // One word of topic is enough here: "Which presidents talked about tariffs?" lists who spoke of them.
  const reading = readAct(evidence.query, speakers, new Set(field.terms), 1);
  if (!reading) return [];
  const pageTerms = new Map<number, string[]>();
  const termsOf = (source: number) => {
    if (!pageTerms.has(source))
      pageTerms.set(
        source,
        evidence.passages.filter((entry) => entry.source === source).flatMap((entry) => entry.passage.terms),
      );
    return pageTerms.get(source)!;
  };
  const out: OwnAct[] = [];
  for (const item of evidence.passages) {
    const attribution = attributions.get(item.source);
    const speaker = attribution?.speaker;
    if (!attribution || !speaker || !doesTheAct(reading, speaker, item.passage, () => termsOf(item.source), dating)) continue;
    out.push({ item, speaker, year: attribution.year });
  }
  return out.sort((a, b) => Number(b.item.inBrief) - Number(a.item.inBrief));
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
  for (const act of ownActs(evidence, field, true)) {
    if (act.year === null || /\b(1\d{3}|20\d{2})\b/.test(act.item.passage.text)) continue;
    out.push({ value: act.year, support: [{ source: act.item.source, passage: act.item.passage, confidence: confidenceOf(act) }] });
  }
  return out;
}

/**
 * "In which years did Dwight Eisenhower speak about the interstate highway system?": the years of
 * the asked speaker's pages the brief quotes on the question (a sentence of them holding a word of
 * what was said), never a year one of their sentences states (that is the year
 * of something else: "since 1949"). Null when the question asks of no speech, or of a claim
 * (dated by the speech saying it), or no such page is quoted.
 */
export function spokenYearCandidates(evidence: TypedEvidence, field: Field): Found[] | null {
  if (!asksAboutSpeech(evidence.query)) return null;
  const attributions = evidence.attributions();
  const speakers = [...attributions.values()].flatMap((attribution) => (attribution.speaker ? [attribution.speaker] : []));
  const reading = readAct(evidence.query, speakers, new Set(field.terms), 1);
  // A claim ("who said that the only thing we have to fear is fear itself") is dated by the speech
  // saying it, not by the pages quoted on it (actYearCandidates): a speaker quoting it again is not then.
  if (!reading || reading.claim !== null) return null;
  const topic = new Set(reading.wanted);
  const out: Found[] = [];
  for (const item of evidence.passages) {
    const { speaker, year } = attributions.get(item.source) ?? {};
    if (!item.inBrief || !speaker || !year || !reading.isAsked(speaker) || out.some((entry) => entry.value === year)) continue;
    // On the topic: a word of what was said ("watergate"), not any word of the question
    // ("president"); a name asked about whole ("the Peace Corps", not "an Army Service Corps").
    if (!item.passage.terms.some((term) => topic.has(loosened(term)))) continue;
    if (reading.name !== null && !saysInOrder(item.passage.text, reading.name)) continue;
    out.push({ value: year, support: [{ source: item.source, passage: item.passage, confidence: "medium" }] });
  }
  return out.length > 0 ? out : null;
}

/** A stem as the act's words are kept (act-sentences.ts): without its final "e". */
const loosened = (term: string) => term.replace(/e$/, "");

/** The full date of each page whose sentence is its speaker's act, when the page states its date (published_at): a bare year is never a date. */
export function actDateCandidates(evidence: TypedEvidence, field: Field): Found[] {
  const out: Found[] = [];
  for (const act of ownActs(evidence, field, true)) {
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
  const cited = evidence.passages.filter((entry) => answer.citations.includes(entry.source));
  // The name in a cited passage, word for word; or, for a person, the cited page's speaker (the
  // short answer "who did it" is read from the title of the speech whose sentence does it).
  const item =
    cited.find((entry) => entry.passage.text.toLowerCase().includes(needle)) ??
    (isPersonField(field) ? cited.find((entry) => entry.inBrief && speakerIs(evidence, entry.source, answer.text)) : undefined);
  if (!item) return [];
  return [
    {
      value: answer.text.trim(),
      support: [{ source: item.source, passage: item.passage, confidence: answer.confidence === "high" && item.inBrief ? "high" : "medium" }],
    },
  ];
}

/** The source's title names this person as its speaker. */
function speakerIs(evidence: TypedEvidence, sourceIndex: number, person: string): boolean {
  const speaker = evidence.attributions().get(sourceIndex)?.speaker ?? null;
  return speaker !== null && namesPerson(speaker, person);
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

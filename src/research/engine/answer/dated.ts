import { namesPerson, pageAttribution, type Passage, type RankedDoc } from "../evidence";
import { stem, terms, words } from "../language";
import type { QueryAnalysis } from "../question";

/** A year read from the page whose sentence does what the question asks. */
export interface DatedAnswer {
  text: string;
  sentence: string;
  basis: Passage[];
  docs: number[];
}

/** Words the question uses for what was said rather than what was done (or for setting it out in words): the speech itself is the act. */
const SPEECH_VERBS = new Set(
  terms(
    "say said says talk talked speak spoke mention mentioned describe described discuss discussed address addressed call called urge urged outline outlined announce announced set out lay laid",
  ),
);
/** Words that name who acts or ask when, not what is done. */
const NOT_THE_ACT = new Set(terms("president presidents person people leader leaders who speaker speakers year years date when time first"));
const QUOTATION = /["“”]/;
const YEAR = /\b(1\d{3}|20\d{2})\b/;

/** A stem without its final "e": "declares" and "declared" stem to "declare" and "declar". */
const loose = (term: string) => term.replace(/e$/, "");

/**
 * "When / in which year did X say or do Y?" answered from the document itself:
 * a speech's sentence that does what the question asks is dated by its page, whose title names
 * the year ("Lyndon B Johnson: State of the Union address, 1964" and "This administration today,
 * here and now, declares unconditional war on poverty in America"). The sentence must be its
 * page's speaker's own act: a page of someone's own words (its title names the speaker), of the
 * speaker the question names when it names one, holding every word of what is asked, quoting no
 * one, stating no year of its own, and not telling the act in the past ("the Federal Government
 * declared war on poverty" reports it). The pages that qualify must agree on one year. The opening
 * quotes the sentence and the page's title, which holds the year: the claim stands on them.
 */
export function datedAnswer(query: QueryAnalysis, ranked: RankedDoc[]): DatedAnswer | null {
  if (query.expects !== "year" && query.expects !== "date") return null;
  if (query.hops || query.comparison) return null;
  const attributed = ranked.map((entry) => ({ entry, attribution: pageAttribution(entry.doc.title) }));
  const speakers = attributed.flatMap(({ attribution }) => (attribution.speaker ? [attribution.speaker] : []));
  if (speakers.length === 0) return null;
  const asked = query.entities.filter((entity) => speakers.some((speaker) => namesPerson(speaker, entity)));
  const nameTerms = new Set(asked.flatMap((person) => words(person).map(stem)));
  const topic = query.terms.filter((term) => !NOT_THE_ACT.has(term) && !SPEECH_VERBS.has(term) && !nameTerms.has(term) && !/^\d+$/.test(term));
  // One word is too little to tell an act from a mention ("When did Lincoln speak of slavery?").
  if (topic.length < 2) return null;
  const wanted = new Set(topic.map(loose));
  // What the act names (the other entities: "Iraq, Iran and North Korea") and what it does to them
  // ("an axis of evil"): a speech names its subjects in the sentences before the one that acts on
  // them ("States like these ... constitute an axis of evil"), so those need only be on the page.
  const subjectTerms = new Set(query.entities.filter((entity) => !asked.includes(entity)).flatMap((entity) => words(entity).map((word) => loose(stem(word)))));
  const act = [...wanted].filter((term) => !subjectTerms.has(term));
  const subjects = [...wanted].filter((term) => subjectTerms.has(term));
  const found: { entry: RankedDoc; passage: Passage; speaker: string; year: number }[] = [];
  for (const { entry, attribution } of attributed) {
    const { speaker, year } = attribution;
    if (!speaker || year === null) continue;
    if (asked.length > 0 && !asked.some((person) => namesPerson(speaker, person))) continue;
    // A question naming someone the pages never speak as ("When did Congress pass ...") is not one speaker's act.
    if (asked.length === 0 && query.entities.length > 0) continue;
    const pageHoldsSubjects = subjects.length > 0 && act.length >= 2 && holdsAll(entry.doc.passages.flatMap((passage) => passage.terms), subjects);
    for (const passage of entry.doc.passages) {
      if (QUOTATION.test(passage.text) || YEAR.test(passage.text)) continue;
      if (!holdsAll(passage.terms, [...wanted]) && !(pageHoldsSubjects && holdsAll(passage.terms, act))) continue;
      if (toldInThePast(passage.text, topic[0]!) || REPORTS_AN_EARLIER_SPEECH.test(passage.text)) continue;
      found.push({ entry, passage, speaker, year });
      break;
    }
  }
  const years = new Set(found.map((item) => item.year));
  if (found.length === 0 || years.size !== 1) return null;
  const best = found[0]!;
  const year = String(best.year);
  return {
    text: year,
    sentence: `In ${year} (${best.entry.doc.title.trim()}): "${best.passage.text.trim()}"`,
    basis: [best.passage],
    docs: [best.entry.doc.index],
  };
}

/** Does a passage's (or page's) terms hold every wanted (loosened) term? */
function holdsAll(held: string[], wanted: string[]): boolean {
  const loosened = new Set(held.map(loose));
  return wanted.every((term) => loosened.has(term));
}

/**
 * A sentence that tells of an earlier speech rather than being one: "Two years ago I spoke in my
 * Annual Message of four freedoms" (1943) dates a mention, not the 1941 address that set them out.
 */
const REPORTS_AN_EARLIER_SPEECH = /\b(?:ago|(?:I|we)\s+(?:spoke|said|told|talked|described|mentioned|called|urged|proposed|asked))\b/i;

/** The act's verb (the first word of what is asked) written in the past in the sentence: it reports the act. */
function toldInThePast(text: string, verb: string): boolean {
  return words(text).some((word) => word.length > 4 && word.endsWith("ed") && loose(stem(word)) === loose(verb));
}

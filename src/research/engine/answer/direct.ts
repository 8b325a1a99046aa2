import type { RankedDoc } from "../evidence";
import { titleNames } from "../evidence";
import type { QueryAnalysis } from "../question";
import { COMPASS, firstPart, measureOf, placeIncludes, placeOf, questionMeasure, startYearOf } from "./compare";
import { DEMONYM_COUNTRY, MONTHS, stem, terms, titleCase, words } from "../language";

/**
 * Direct answers the evidence can support without a model: yes/no for comparisons when both
 * sides were found, and a pick between two named options. Anything less certain is left to
 * the key findings.
 */
export interface DirectAnswer {
  /** The short answer: "yes", "no", or the option picked. */
  answer: string;
  /** The opening sentence, without citations. */
  text: string;
  /** The docs that support it (their evidence indexes). */
  docs: number[];
  /** Decided by how many of the asked words each option's page holds, not by a stated fact. */
  byOverlap?: boolean;
  /** The fact it was decided on: a feature of its probability (answer/features.ts). */
  rule?: DirectRule;
  /** The sentence of each doc it rests on (position in the page; the lead sentence when absent). */
  sentences?: number[];
}

export type DirectRule = "birth_years" | "overlap" | "nationality" | "same_place" | "attribute" | "measure" | "start_year" | "place";

/**
 * Countries a lead may name outright for its subject's nationality ("a United States Navy
 * officer"); any other country counts only where the sentence says its subject is in, of or from
 * it: a country's name is also a first name ("Chad Smith") or a word ("turkey") too often.
 */
const NAMED_ANYWHERE = new Set(
  "united states|england|united kingdom|scotland|wales|ireland|france|germany|italy|spain|portugal|canada|australia|mexico|brazil|argentina|russia|china|japan|korea|india|sweden|norway|denmark|finland|netherlands|belgium|switzerland|austria|poland|greece|egypt|bangladesh|pakistan|new zealand|south korea".split(
    "|",
  ),
);

const BIRTH_COMPARATIVES = new Set(["older", "oldest", "elder", "younger", "youngest", "born"]);
const EARLIER = new Set(["older", "oldest", "elder", "earlier", "first"]);

/** The page about an entity: its title names it, else the best-ranked page mentioning it. */
function docAbout(ranked: RankedDoc[], entity: string): RankedDoc | undefined {
  // "Giuseppe Verdi" is about the composer; "Giuseppe Verdi (film)" only shares the name.
  const exact = ranked.find((entry) => words(entry.doc.title).join(" ") === words(entity).join(" "));
  return (
    exact ?? ranked.find((entry) => titleNames(entry.doc.title, entity)) ?? ranked.find((entry) => entry.doc.title.toLowerCase().includes(entity.toLowerCase()))
  );
}

function leadText(entry: RankedDoc, count = 3): string {
  return entry.doc.sentences.slice(0, count).join(" ");
}

/** Terms of a text with demonyms expanded to the country they name. */
function expandedTerms(text: string): Set<string> {
  const lower = ` ${words(text).join(" ")} `;
  const out = new Set(terms(text));
  for (const [demonym, country] of Object.entries(DEMONYM_COUNTRY)) {
    if (lower.includes(` ${demonym} `)) for (const term of terms(country)) out.add(term);
  }
  return out;
}

/** Each country as a sentence places its subject there (" from cape verde "), compiled once. */
const PLACED_IN = new Map(Object.values(DEMONYM_COUNTRY).map((country) => [country, new RegExp(` (?:in|of|from) (?:the )?${country} `)]));

function nationalities(text: string): string[] {
  const lower = ` ${words(text).join(" ")} `;
  const named = (country: string) => (NAMED_ANYWHERE.has(country) ? lower.includes(` ${country} `) : PLACED_IN.get(country)!.test(lower));
  return [
    ...new Set(
      Object.entries(DEMONYM_COUNTRY)
        .filter(([demonym, country]) => lower.includes(` ${demonym} `) || named(country))
        .map(([, country]) => country),
    ),
  ];
}

/** "in", "at" or "on", then a capitalised name, a compass word allowed before it ("in southeastern Jiangsu province"). */
const FIRST_PLACE = new RegExp(`\\b(?:in|at|on)\\s+(?:the\\s+)?${COMPASS}([\\p{Lu}][\\p{L}'’-]+(?:\\s+[\\p{Lu}][\\p{L}'’-]+)*)`, "gu");

/** The first place named after "in" or "at": the most specific location in a lead sentence. */
function firstPlace(text: string, self: string): string | undefined {
  for (const match of text.matchAll(FIRST_PLACE)) {
    const place = match[1]!;
    if (!titleNames(self, place)) return place;
  }
  return undefined;
}

/** A year, also where a lost dash glued it to the next date ("( 21 February 188524 July 1957)"). */
const YEAR_ENDS = `(?:\\b|(?=\\d{1,2}\\s+(?:${MONTHS})\\b))`;
const BORN_YEAR = new RegExp(`\\bborn\\b[^.;]*?\\b(1\\d{3}|20\\d{2})${YEAR_ENDS}`);
const LIFE_YEAR = new RegExp(`\\((?:[^()]*?\\b)?(1\\d{3}|20\\d{2})${YEAR_ENDS}`);

function birthYear(text: string): number | undefined {
  const born = BORN_YEAR.exec(text) ?? LIFE_YEAR.exec(text);
  return born ? Number(born[1]) : undefined;
}

export function directAnswer(query: QueryAnalysis, ranked: RankedDoc[]): DirectAnswer | null {
  if (query.kind === "choice" && query.options.length === 2) return choiceAnswer(query, ranked);
  if (query.kind === "yes_no") {
    const found = yesNoAnswer(query, ranked);
    return found && { ...found, answer: found.text.startsWith("Yes") ? "yes" : "no" };
  }
  return null;
}

type Decided = Omit<DirectAnswer, "answer">;

function choiceAnswer(query: QueryAnalysis, ranked: RankedDoc[]): DirectAnswer | null {
  const [first, second] = query.options as [string, string];
  const a = docAbout(ranked, first);
  const b = docAbout(ranked, second);
  if (!a || !b || a === b) return null;
  const docs = [a.doc.index, b.doc.index];
  if (query.focusTerms.some((term) => BIRTH_COMPARATIVES.has(term))) {
    const yearA = birthYear(leadText(a, 2));
    const yearB = birthYear(leadText(b, 2));
    if (yearA === undefined || yearB === undefined || yearA === yearB) return null;
    const wantEarlier = query.focusTerms.some((term) => EARLIER.has(term));
    const pickA = wantEarlier ? yearA < yearB : yearA > yearB;
    const [winner, loser, winYear, loseYear] = pickA ? [first, second, yearA, yearB] : [second, first, yearB, yearA];
    const comparative = query.focusTerms.find((term) => BIRTH_COMPARATIVES.has(term) && term !== "born") ?? (wantEarlier ? "older" : "younger");
    return { answer: winner, text: `${winner} is ${comparative}: ${winner} was born in ${winYear}, ${loser} in ${loseYear}.`, docs, rule: "birth_years" };
  }
  // "Which writer was from England, A or B?": the option whose page matches the asked attribute.
  const attribute = [...query.focusTerms, ...query.entities.filter((entity) => !query.options.includes(entity)).flatMap((entity) => terms(entity))];
  const matchCount = (entry: RankedDoc) => {
    const have = expandedTerms(leadText(entry));
    return attribute.filter((term) => have.has(term)).length;
  };
  const scoreA = matchCount(a);
  const scoreB = matchCount(b);
  if (scoreA === scoreB) return null;
  const winnerDoc = scoreA > scoreB ? a : b;
  const winner = scoreA > scoreB ? first : second;
  return {
    answer: winner,
    byOverlap: true,
    rule: "overlap",
    text: `${winner} (${winnerDoc.doc.title}) is the one that matches: ${winnerDoc.doc.sentences[0] ?? ""}`.trim(),
    docs,
  };
}

function yesNoAnswer(query: QueryAnalysis, ranked: RankedDoc[]): Decided | null {
  // The compared subjects are the question entities with a page of their own.
  const subjects = query.entities.filter((entity) => ranked.some((entry) => titleNames(entry.doc.title, entity)));
  if (subjects.length < 2) return null;
  const [first, second] = subjects as [string, string];
  const a = docAbout(ranked, first)!;
  const b = docAbout(ranked, second)!;
  const docs = [a.doc.index, b.doc.index];
  const textA = leadText(a);
  const textB = leadText(b);
  const compared = comparison(query.question, first, second, a, b);
  if (compared) return compared;
  const same = /\bsame\b/i.test(query.question);
  const aboutNationality = /\b(nationality|nationalities|country|countries|citizens?)\b/i.test(query.question);
  if (same && aboutNationality) {
    const natA = nationalities(a.doc.sentences[0] ?? textA);
    const natB = nationalities(b.doc.sentences[0] ?? textB);
    if (natA.length === 0 || natB.length === 0) return null;
    const shared = natA.filter((country) => natB.includes(country));
    return shared.length > 0
      ? { text: `Yes: both ${first} and ${second} are from ${titleCase(shared[0]!)}.`, docs, rule: "nationality" }
      : { text: `No: ${first} is from ${titleCase(natA[0]!)} and ${second} from ${titleCase(natB[0]!)}.`, docs, rule: "nationality" };
  }
  if (same) {
    const placeA = firstPlace(a.doc.sentences[0] ?? textA, a.doc.title);
    const placeB = firstPlace(b.doc.sentences[0] ?? textB, b.doc.title);
    if (!placeA || !placeB) return null;
    const equal = words(placeA).join(" ") === words(placeB).join(" ");
    return equal
      ? { text: `Yes: both ${first} and ${second} are in ${placeA}.`, docs, rule: "same_place" }
      : { text: `No: ${first} is in ${placeA}, while ${second} is in ${placeB}.`, docs, rule: "same_place" };
  }
  // "Are A and B both X?": X is what the question says besides the subjects.
  const attribute = [
    ...query.focusTerms.filter((term) => !GENERIC_VERBS.has(term)),
    ...query.entities.filter((entity) => !subjects.slice(0, 2).includes(entity)).flatMap((entity) => terms(entity)),
  ];
  if (attribute.length === 0) return null;
  const haveA = expandedTerms(textA);
  const haveB = expandedTerms(textB);
  const missingA = attribute.filter((term) => !haveA.has(term));
  const missingB = attribute.filter((term) => !haveB.has(term));
  // Said in the question's own words ("United States"), never its stems ("unit state").
  const wanted = new Set(attribute);
  const description = (query.question.match(/[\p{L}\p{N}'’-]+/gu) ?? []).filter((word) => wanted.has(stem(word.toLowerCase()))).join(" ");
  if (missingA.length === 0 && missingB.length === 0)
    return { text: `Yes: the sources describe both ${first} and ${second} with the words "${description}".`, docs, rule: "attribute" };
  const lacking = [missingA.length > 0 ? first : null, missingB.length > 0 ? second : null].filter(Boolean).join(" and ");
  return { text: `No: the sources do not describe ${lacking} with the words "${description}".`, docs, rule: "attribute" };
}

const BIGGER = /\b(taller|higher|longer|larger|bigger|deeper|greater|shorter|smaller|lower|shallower)\s+than\b/i;
const OLDER = /\b(older|younger|earlier|later)\s+than\b/i;
const RELATION_IN = /\b(born|headquartered|based|formed|founded|located|built|established)\s+in\s+(?:the\s+)?(.+?)\s*\??$/i;

/**
 * Yes/no questions that turn on a fact of each subject's page: "Is A taller than B?" (measures),
 * "Is A older than B?" (founding or birth years), "Are A and B both longer than 1,000 km?",
 * "Were A and B both born in Moscow?", "Were A and B formed in the same city?" (the place stated
 * with the relation). The answer names the deciding fact of each.
 */
function comparison(question: string, first: string, second: string, a: RankedDoc, b: RankedDoc): Decided | null {
  const docs = [a.doc.index, b.doc.index];
  const bigger = BIGGER.exec(question);
  if (bigger) {
    const [ma, mb] = [measureOf(a), measureOf(b)];
    if (!ma || !mb) return null;
    const threshold = questionMeasure(question);
    const wantsBigger = !/^(shorter|smaller|lower|shallower)$/i.test(bigger[1]!);
    const sentences = [ma.sentence, mb.sentence];
    if (threshold !== null && /\bboth\b/i.test(question)) {
      const passes = (value: number) => (wantsBigger ? value > threshold : value < threshold);
      const ok = passes(ma.value) && passes(mb.value);
      return {
        text: `${ok ? "Yes" : "No"}: ${first} measures about ${formatMetres(ma.value)} and ${second} about ${formatMetres(mb.value)}.`,
        docs,
        sentences,
        rule: "measure",
      };
    }
    const yes = wantsBigger ? ma.value > mb.value : ma.value < mb.value;
    return {
      text: `${yes ? "Yes" : "No"}: ${first} measures about ${formatMetres(ma.value)}, ${second} about ${formatMetres(mb.value)}.`,
      docs,
      sentences,
      rule: "measure",
    };
  }
  const older = OLDER.exec(question);
  if (older) {
    const [ya, yb] = [startYearOf(a), startYearOf(b)];
    if (!ya || !yb || ya.value === yb.value) return null;
    const wantsEarlier = /^(older|earlier)$/i.test(older[1]!);
    const yes = wantsEarlier ? ya.value < yb.value : ya.value > yb.value;
    return {
      text: `${yes ? "Yes" : "No"}: ${first} dates from ${ya.value} and ${second} from ${yb.value}.`,
      docs,
      sentences: [ya.sentence, yb.sentence],
      rule: "start_year",
    };
  }
  const relation = RELATION_IN.exec(question);
  if (relation) {
    const cue = relation[1]!.toLowerCase().slice(0, 5);
    const cues = cue === "headq" || cue === "based" ? ["headquarter", "based"] : [cue];
    const [pa, pb] = [placeOf(a, cues), placeOf(b, cues)];
    if (!pa || !pb) return null;
    const sentences = [pa.sentence, pb.sentence];
    const verb = relation[1]!.toLowerCase();
    // "located in Laleli, Fatih, Istanbul, Turkey." read to its sentence's end: not its full stop.
    const [placeA, placeB] = [pa.value, pb.value].map((value) => value.replace(/[\s.,;:]+$/, ""));
    if (/^same\b/i.test(relation[2]!)) {
      const equal = words(firstPart(pa.value)).join(" ") === words(firstPart(pb.value)).join(" ");
      return { text: `${equal ? "Yes" : "No"}: ${first} was ${verb} in ${placeA} and ${second} in ${placeB}.`, docs, sentences, rule: "place" };
    }
    if (/\bboth\b/i.test(question)) {
      const place = relation[2]!;
      const yes = placeIncludes(pa.value, place) && placeIncludes(pb.value, place);
      return { text: `${yes ? "Yes" : "No"}: ${first} was ${verb} in ${placeA} and ${second} in ${placeB}.`, docs, sentences, rule: "place" };
    }
  }
  return null;
}

function formatMetres(value: number): string {
  return value >= 10_000 ? `${Math.round(value / 1000).toLocaleString("en-US")} km` : `${Math.round(value).toLocaleString("en-US")} m`;
}

const GENERIC_VERBS = new Set(["used", "use", "locat", "based", "bas", "known", "consider"].map(stem));

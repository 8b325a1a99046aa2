import type { AnswerConfidence } from "../../shapes";
import type { Evidence, Passage } from "../evidence";
import type { ComparedFact, ComparisonPlan, HopAttribute } from "../question";
import { DEMONYM_COUNTRY, MONTHS, words } from "../language";
import { pageAbout, resolveChain } from "./chain";
import { statedAttribute } from "./facts";

/**
 * A comparison decided on one stated fact of each side: each side's chain is followed (a film to
 * its director) and the compared fact read from a sentence of the last page. Only when both
 * facts were read is the comparison answered; the sentence then names both.
 */

export interface ComparedAnswer {
  text: string;
  confidence: AnswerConfidence;
  sentence: string;
  basis: Passage[];
  docs: number[];
}

interface SideFact {
  label: string;
  entity: string;
  value: string;
  passages: Passage[];
  docs: number[];
  ambiguous: boolean;
}

/**
 * "X is a 1950 Czechoslovak film", "released on 5 May 1998", "founded in 1865", "formed in early
 * 2006", "published since July 1980": the year a work or a body began.
 */
const RELEASE = new RegExp(
  `\\b(?:is|was)\\s+an?\\s+(\\d{4})\\b|\\b(?:released|premiered|published|founded|established|formed|opened|built|created|started|launched|debuted)\\s+(?:on\\s+|in\\s+|since\\s+)?(?:(?:early|late|mid)[\\s-]+)?((?:(?:${MONTHS})\\s+(?:\\d{1,2},?\\s+)?)?\\d{4}|\\d{1,2}\\s+(?:${MONTHS})\\s+\\d{4})`,
  "u",
);

function readFact(plan: ComparisonPlan, side: ComparisonPlan["sides"][number], evidence: Evidence): SideFact | null {
  const fact = plan.fact;
  if (fact === "release_date" || fact === "country" || side.relations.length === 0) {
    const doc = pageAbout(evidence, side.name);
    if (!doc || side.relations.length > 0) return side.relations.length > 0 ? viaChain(side, fact as HopAttribute, evidence) : null;
    for (const passage of doc.passages.slice(0, 3)) {
      const stated =
        fact === "release_date"
          ? (() => {
              const match = RELEASE.exec(passage.text);
              return match ? { value: (match[1] ?? match[2])!, index: match.index } : null;
            })()
          : statedAttribute(passage.text, fact);
      if (stated) return { label: side.name, entity: side.name, value: stated.value, passages: [passage], docs: [doc.index], ambiguous: false };
    }
    return null;
  }
  return viaChain(side, fact, evidence);
}

function viaChain(side: ComparisonPlan["sides"][number], attribute: HopAttribute, evidence: Evidence): SideFact | null {
  const resolved = resolveChain({ anchor: side.name, relations: side.relations, attribute, subjectPhrase: side.name }, evidence);
  if (!resolved.answer) return null;
  const last = resolved.steps[resolved.steps.length - 1]!;
  const links = resolved.steps.flatMap((step) => (step.passage ? [step.passage] : []));
  return {
    label: side.name,
    entity: last.entity,
    value: resolved.answer.text,
    passages: [...links, resolved.answer.passage],
    docs: [...new Set([...resolved.steps.flatMap((step) => (step.doc ? [step.doc.index] : [])), resolved.answer.passage.doc])],
    ambiguous: resolved.steps.some((step) => step.ambiguous),
  };
}

const MONTH_INDEX = new Map(MONTHS.split("|").map((month, index) => [month.toLowerCase(), index + 1]));

/** A date as a sortable number (yyyymmdd, unknown parts 0) and how precise it is. */
function dateKey(value: string): { key: number; precision: "day" | "month" | "year" } | null {
  const year = /\b(\d{3,4})\b/.exec(value);
  if (!year) return null;
  const month =
    words(value)
      .map((word) => MONTH_INDEX.get(word))
      .find((index) => index !== undefined) ?? 0;
  const day = /\b(\d{1,2})\b/.exec(value.replace(year[0], ""));
  const dayNumber = day ? Number(day[1]) : 0;
  return { key: Number(year[1]) * 10000 + month * 100 + dayNumber, precision: dayNumber ? "day" : month ? "month" : "year" };
}

const FACT_VERB: Record<ComparedFact, string> = {
  birth_date: "was born",
  death_date: "died",
  release_date: "came out",
  nationality: "is",
  country: "is in",
};

function describe(side: SideFact, fact: ComparedFact): string {
  const who = side.entity === side.label ? side.label : `${side.entity} (${side.label})`;
  const value =
    fact === "birth_date" || fact === "death_date" || fact === "release_date"
      ? /^\d+$/.test(side.value)
        ? `in ${side.value}`
        : `on ${side.value}`
      : side.value;
  return `${who} ${FACT_VERB[fact]} ${value}`;
}

/** The words of one value hold the other's, in order ("native american" holds "american"). */
function within(a: string[], b: string[]): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length === 0) return false;
  return long.some((_, start) => short.every((word, offset) => long[start + offset] === word));
}

export function compareByFacts(plan: ComparisonPlan, evidence: Evidence): ComparedAnswer | null {
  const [a, b] = plan.sides.map((side) => readFact(plan, side, evidence));
  if (!a || !b) return null;
  const basis = [...new Set([...a.passages, ...b.passages])];
  const docs = [...new Set([...a.docs, ...b.docs])];
  const facts = `${describe(a, plan.fact)}; ${describe(b, plan.fact)}.`;
  const ambiguous = a.ambiguous || b.ambiguous;
  if (plan.pick === "same") {
    // "American" and "United States" are the same country.
    const country = (value: string) => DEMONYM_COUNTRY[words(value).join(" ")] ?? words(value).join(" ");
    const same = country(a.value) === country(b.value);
    // "Native American" and "American", "South Korean" and "Korean": one value within the other
    // says neither that they differ nor that they match (a "no" for two American directors).
    if (!same && within(words(a.value), words(b.value))) return null;
    const text = same ? "yes" : "no";
    return { text, confidence: ambiguous ? "medium" : "high", sentence: `${same ? "Yes" : "No"}: ${facts}`, basis, docs };
  }
  const ka = dateKey(a.value);
  const kb = dateKey(b.value);
  if (!ka || !kb || ka.key === kb.key) return null;
  // Two dates of different precision compare only on what both say ("1909" against "7 June 1909" does not decide).
  if (ka.precision !== kb.precision && Math.floor(ka.key / 10000) === Math.floor(kb.key / 10000)) return null;
  const aWins = plan.pick === "earliest" ? ka.key < kb.key : ka.key > kb.key;
  const winner = aWins ? a : b;
  return { text: winner.label, confidence: ambiguous ? "medium" : "high", sentence: `${winner.label}: ${facts}`, basis, docs };
}

import { terms, withRelations } from "../../language";
import type { Found, Support } from "./basis";
import type { CitedPassage, Confidence, TypedEvidence } from "./evidence";
import { countedTerms, countsSources, type Field, isCount, isYearField } from "./field";
import { meetsBounds } from "./schema";
import { actYearCandidates, spokenYearCandidates } from "./attribution";
import { isDayOfMonthAt, isYearAt, lifeDateIn, lifeEventOf, type Token, tokenize } from "./values";

/**
 * Numbers and integers of the typed output, never invented: a value is a number a cited passage
 * states about what the field names ("11 presidents" for a count of presidents; "a population of
 * 8,000" for a population), a year a passage about the question states, or, only when the field
 * says it counts sources, the number of cited sources that bear on the question. Anything else
 * (a number elsewhere in the passage, a default, a clamp into the schema's range) is not a value.
 */

/** A quantity is stated about a word at most this many words away. */
const NEAR = 4;
/** A year belongs to the question's words at most this many words away to count as stated about them. */
const YEAR_NEAR = 6;
/** Words that say a value is a year, not what it is the year of. */
const YEAR_WORDS = new Set(["year", "yr", "date", "when"]);
/** Words between a number and its noun that make it no count of that noun ("90 percent of Americans", "one of the presidents"). */
const NOT_A_COUNT = new Set(["percent", "%", "per", "cent", "of", "times", "fold"]);

/** The candidates of a number or integer field, best supported first, each value once. */
export function numberCandidates(field: Field, evidence: TypedEvidence): Found[] {
  const found = countsSources(field) ? sourceCount(evidence) : isYearField(field) ? years(field, evidence) : quantities(field, evidence);
  return distinct(found).filter((entry) => meetsBounds(field.node, entry.value));
}

/** The candidate supporting exactly this number, if any (a model's value is checked against them). */
export function supportedNumber(field: Field, evidence: TypedEvidence, value: number): Found | null {
  return numberCandidates(field, evidence).find((entry) => Math.abs((entry.value as number) - value) <= 1e-9 * Math.max(1, Math.abs(value))) ?? null;
}

function distinct(found: Found[]): Found[] {
  const seen = new Set<number>();
  return found.filter((entry) => !seen.has(entry.value as number) && seen.add(entry.value as number));
}

interface Hit {
  value: number;
  item: CitedPassage;
  distance: number;
  /** Distinct key terms of the question the passage holds. */
  keys: number;
}

const support = (item: CitedPassage, confidence: Confidence): Support => ({ source: item.source, passage: item.passage, confidence });

function byStrength(a: Hit, b: Hit): number {
  return Number(b.item.inBrief) - Number(a.item.inBrief) || b.keys - a.keys || a.distance - b.distance;
}

/** A number stated about what the field names: its noun right after it for a count, its words near it otherwise. */
function quantities(field: Field, evidence: TypedEvidence): Found[] {
  const count = isCount(field);
  // A field named only "count" or "number" counts what the question asks about ("How many states ...").
  const own = count ? countedTerms(field) : field.terms;
  const about = withRelations(own.length > 0 ? own : howManyOf(evidence.query.question));
  if (about.size === 0) return [];
  const keys = keyTermsBesides(evidence, about);
  const hits: Hit[] = [];
  for (const item of evidence.relevant(about)) {
    const tokens = tokenize(item.passage.text);
    for (let i = 0; i < tokens.length; i++) {
      if (tokens[i]!.number === undefined || isYearAt(tokens, i) || isDayOfMonthAt(tokens, i)) continue;
      const distance = count ? countedNounDistance(tokens, i, about) : nearestTermDistance(tokens, i, about, NEAR);
      if (distance === undefined) continue;
      hits.push({ value: tokens[i]!.number!, item, distance, keys: sharedKeys(item, keys) });
    }
  }
  return hits.sort(byStrength).map((hit) => {
    const adjacent = hit.distance <= 2;
    const confidence: Confidence = adjacent && hit.item.inBrief ? "high" : adjacent || hit.item.inBrief ? "medium" : "low";
    return { value: hit.value, support: [support(hit.item, confidence)] };
  });
}

/** The noun of "how many <noun>" in the question. */
function howManyOf(question: string): string[] {
  const noun = /\bhow many\s+([\p{L}-]+)/iu.exec(question);
  return noun ? terms(noun[1]!) : [];
}

/** "11 presidents", "eleven American presidents": the counted noun within two words after the number. */
function countedNounDistance(tokens: Token[], at: number, noun: Set<string>): number | undefined {
  for (let j = at + 1; j <= at + 3 && j < tokens.length; j++) {
    const token = tokens[j]!;
    if (token.number !== undefined || NOT_A_COUNT.has(token.word)) return undefined;
    if (noun.has(token.stem)) return j - at;
  }
  return undefined;
}

/** Words away from the nearest of `wanted`, with no other number between (that number would be the one stated about it). */
function nearestTermDistance(tokens: Token[], at: number, wanted: Set<string>, limit: number): number | undefined {
  for (let distance = 1; distance <= limit; distance++) {
    for (const j of [at - distance, at + distance]) {
      const token = tokens[j];
      if (!token || !wanted.has(token.stem)) continue;
      const between = tokens.slice(Math.min(at, j) + 1, Math.max(at, j));
      if (!between.some((other) => other.number !== undefined)) return distance;
    }
  }
  return undefined;
}

function keyTermsBesides(evidence: TypedEvidence, own: Set<string>): Set<string> {
  return new Set([...evidence.keyTerms].filter((term) => !own.has(term)));
}

function sharedKeys(item: CitedPassage, keys: Set<string>): number {
  return new Set(item.passage.terms.filter((term) => keys.has(term))).size;
}

/**
 * A year: the birth or death year a life-dates parenthesis states, else a year standing near the
 * words of the question or the field in a passage holding at least two of them (one when there is
 * one), within the question's period when it names one.
 */
function years(field: Field, evidence: TypedEvidence): Found[] {
  const event = lifeEventOf(field.words);
  const life: Found[] = [];
  if (event) {
    for (const item of evidence.passages) {
      const date = lifeDateIn(item.passage.text, event);
      const year = date && /(\d{3,4})\s*$/.exec(date);
      if (year) life.push({ value: Number(year[1]), support: [support(item, item.inBrief ? "high" : "medium")] });
    }
  }
  // When someone spoke is the year of their speech, never a year a sentence of it states.
  const spoken = spokenYearCandidates(evidence, field);
  // In order of time, as a list of years is read (a single year field takes the earliest).
  if (spoken) return [...life, ...[...actYearCandidates(evidence, field), ...spoken].sort((a, b) => (a.value as number) - (b.value as number))];
  // What the year is of: the question's key terms and the field's own words ("years the tariffs were passed").
  const keys = new Set([...evidence.keyTerms, ...withRelations(field.terms)].filter((term) => !YEAR_WORDS.has(term)));
  const needed = Math.min(2, keys.size);
  const period = evidence.query.period;
  const hits: Hit[] = [];
  for (const item of evidence.passages) {
    const shared = sharedKeys(item, keys);
    if (shared < needed) continue;
    const tokens = tokenize(item.passage.text);
    for (let i = 0; i < tokens.length; i++) {
      if (!isYearAt(tokens, i)) continue;
      const value = tokens[i]!.number!;
      if (period && (value < period.from || value > period.to)) continue;
      const distance = keys.size === 0 ? 0 : (nearestTermDistance(tokens, i, keys, tokens.length) ?? tokens.length);
      hits.push({ value, item, distance, keys: shared });
    }
  }
  const stated = hits.sort(byStrength).map((hit) => {
    const near = hit.distance <= YEAR_NEAR;
    const confidence: Confidence = near && hit.item.inBrief && hit.keys >= 2 ? "high" : near ? "medium" : "low";
    return { value: hit.value, support: [support(hit.item, confidence)] };
  });
  // The date of the speech whose sentence does what is asked ("declares unconditional war on
  // poverty" in the 1964 address): before a year some other sentence states nearby.
  return [...life, ...actYearCandidates(evidence, field), ...stated];
}

/**
 * "How many sources / speeches mention it": the cited sources a statement of the brief rests on
 * that holds a key term of the question. It counts what was read and cited, so it is `medium`.
 */
function sourceCount(evidence: TypedEvidence): Found[] {
  const bySource = new Map<number, CitedPassage>();
  for (const statement of evidence.statements) {
    for (const item of statement.support) {
      if (!bySource.has(item.source) && item.passage.terms.some((term) => evidence.keyTerms.has(term))) bySource.set(item.source, item);
    }
  }
  if (bySource.size === 0) return [];
  return [{ value: bySource.size, support: [...bySource.values()].map((item) => support(item, "medium")) }];
}

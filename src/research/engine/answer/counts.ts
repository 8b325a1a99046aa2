/**
 * A count stated as the count the question asks for: "the county population was 9,984" for "a
 * population of how many inhabitants", "a 4,000 capacity (3,677 seated) arena" for "can seat how
 * many people", "for 20 episodes" for "how many episodes". A number near the asked words is not
 * enough: "102° 3′ W" stands beside "Population" in a state's infobox, and a page on a series
 * counts its seasons, its awards and its episodes. Pure text functions.
 */

/** Words that state one measure: asking any of them accepts all of the group. */
const MEASURE_GROUPS: readonly (readonly string[])[] = [
  ["population", "inhabitants", "residents"],
  ["seat", "seats", "seated", "seating"],
  ["capacity", "seating", "seats", "spectators"],
];

/** Words after "how many" that say nothing of what is counted. */
const NOT_COUNTED = new Set(["of", "the", "a", "an", "were", "was", "are", "is", "did", "does", "do", "has", "have", "had"]);

/** "1,462", "150 million", "9,984", "4.5": a count as a page writes it. */
export const COUNT = /\b\d{1,3}(?:,\d{3})+(?:\.\d+)?\b|\b\d+(?:\.\d+)?(?:\s(?:million|billion|thousand|hundred))?\b/g;

/**
 * The words a count the question asks for is stated with, lower case: the noun after "how many"
 * ("how many congressional districts": congressional, districts), and a measure the question
 * names (population, capacity, seats) with the words that state it too. Empty when the question
 * names nothing counted.
 */
export function countedNouns(question: string): Set<string> {
  const nouns = new Set<string>();
  const lower = question.toLowerCase();
  // "How much money …" asks an amount, which a page writes as "$4.2 million", not as "4.2 million money".
  const howMany = /\bhow many\s+([a-z-]+)(?:\s+([a-z-]+))?/.exec(lower);
  if (howMany) for (const word of howMany.slice(1)) if (word && !NOT_COUNTED.has(word)) nouns.add(word);
  const said = new Set(lower.match(/[a-z]+/g) ?? []);
  for (const group of MEASURE_GROUPS) if (group.some((word) => said.has(word))) for (const word of group) nouns.add(word);
  return nouns;
}

const QUALIFIER = String.raw`(?:(?:about|approximately|around|roughly|nearly|almost|over|more than|some|an estimated|estimated at|just over|just under)\s+)?`;

/**
 * Whether the number at `index` of the sentence is stated as a count of one of `nouns`: followed
 * by one of them ("20 episodes", "4 congressional districts", "3,677 seated"), or following one
 * with only a verb or "of" between ("population was 9,984", "a population of 6,960", "the
 * population estimated by the U.S. Census Bureau is 15,140").
 */
export function statesCountAt(sentence: string, index: number, number: string, nouns: ReadonlySet<string>): boolean {
  if (nouns.size === 0) return false;
  const after = /^\s+(?:[\p{L}-]+\s+)?([\p{L}-]+)/u.exec(sentence.slice(index + number.length));
  const afterWords = after ? [after[0].trim().split(/\s+/)[0]!.toLowerCase(), after[1]!.toLowerCase()] : [];
  if (afterWords.some((word) => nouns.has(word))) return true;
  const before = sentence.slice(Math.max(0, index - 60), index);
  // The nearest asked noun before the number, with only a verb or "of" (and a short clause) between.
  for (const word of before.matchAll(/[\p{L}]+/gu)) {
    if (nouns.has(word[0].toLowerCase()) && NOUN_TO_COUNT.test(before.slice((word.index ?? 0) + word[0].length))) return true;
  }
  return false;
}

/**
 * What may stand between a measure and its count: "… population was ", "a population of ",
 * "Capacity: ", and an infobox's row as a page's text flattens it ("Population Ranked 35th Total
 * 2,913,123", "Population (2010) Total 27,340").
 */
const NOUN_TO_COUNT = new RegExp(
  String.raw`^[^;\d]{0,45}?\b(?:of|was|is|were|are|at|totals?|totall?ed|reached|numbered|stood at|holds|held)\s+${QUALIFIER}$|^:\s*${QUALIFIER}$|^\s+(?:\(\d{4}\)\s+)?(?:Ranked\s+\d+(?:st|nd|rd|th)\s+)?Total\s+$`,
  "i",
);

/** A span's own count, its first number ("3,677" of "3,677 seated"). */
const FIRST_COUNT = new RegExp(COUNT.source);

/**
 * Whether a span (its number first: "3,677 seated") is stated in the sentence as a count of the
 * asked nouns, of the year asked (`measureYears` of the question) when the question dates it.
 */
export function statesCount(sentence: string, span: string, nouns: ReadonlySet<string>, years: ReadonlySet<string> = new Set()): boolean {
  const number = FIRST_COUNT.exec(span)?.[0];
  if (!number) return false;
  for (const match of sentence.matchAll(COUNT)) {
    const index = match.index ?? 0;
    if (match[0] === number && statesCountAt(sentence, index, number, nouns) && ofAskedYear(sentence, years, index)) return true;
  }
  return false;
}

/** The years a question dates its count by: only a year said with the measure ("the 2014 population", "at the 2011 census"). */
export function measureYears(question: string): Set<string> {
  return new Set([...question.matchAll(MEASURE_YEAR)].map((match) => match[1] ?? match[2]!));
}

/**
 * "What was the 2014 population …": a count the sentence dates to another year ("The population
 * was 14,225 at the 2010 census. As of 2014, … is 15,140") is not the one asked: the year nearest
 * the count must be the one asked (`measureYears`). A count with no year in its sentence may be of any.
 */
export function ofAskedYear(sentence: string, asked: ReadonlySet<string>, index: number): boolean {
  if (asked.size === 0) return true;
  let nearest: { year: string; distance: number } | null = null;
  for (const match of sentence.matchAll(/\b(?:1[5-9]|20)\d{2}\b/g)) {
    const distance = Math.abs((match.index ?? 0) - index);
    if (!nearest || distance < nearest.distance) nearest = { year: match[0], distance };
  }
  return nearest === null || asked.has(nearest.year);
}

const MEASURE_YEAR =
  /\b((?:1[5-9]|20)\d{2})\s+(?:\w+\s+)?(?:census|population|estimate|capacity|attendance)\b|\b(?:census|population|estimate|capacity|attendance)\s+(?:\w+\s+){0,5}?(?:in|of|as of)\s+((?:1[5-9]|20)\d{2})\b/gi;

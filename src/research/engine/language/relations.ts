import { stem, words } from "./text";

/**
 * How pages state what questions ask. A question says "the director of X", "X's spouse",
 * "where did Y die"; the page says "directed by", "married", "died in". Each group lists words
 * that name the same relation; a question word of a group makes the others count as evidence.
 */
const GROUPS = [
  "director directed directs directing",
  "author writer wrote written writes novelist",
  "spouse wife husband married marry marries",
  "founder founded founding co-founded established",
  "creator created creates",
  "producer produced produces",
  "composer composed composes music",
  "performer performed performs recorded sung singer sang band",
  "father son",
  "mother daughter",
  "publisher published publishes",
  "developer developed develops",
  "manufacturer manufactured makes made produces",
  "designer designed architect",
  "owner owned owns",
  "headquarters headquartered based",
  "born birth birthplace",
  "died death die dies",
  "located location situated lies",
  "starring starred stars star actor actress cast portrayed played role",
  "population inhabitants residents people",
  "capacity seats seat seating holds",
  "won win wins winner award awarded",
  "coach coached manager managed head",
  "member members band group",
  "named name honor honour",
  "older elder oldest born",
  "younger youngest born",
  "nationality citizen country american british",
  "released release debut",
  "league conference division",
].map(stemmedGroup);

/**
 * Words of one meaning in any context, said for each other: "defense spending" is spoken of as
 * "defense expenditures" and "the defense budget". Pages count them as the question's words, and so does a topic.
 */
export const SAME_SENSE = ["spending spend expenditure expenditures outlay outlays budget budgets", "defense defence"].map(stemmedGroup);

/**
 * Question words of a broad meaning, each first, then the narrower words pages state it with: "who
 * was in charge of Somalia" is said as "elected … the new President of Somalia", "the Metropolitan
 * Mayor of Ankara". One way only: a question asking for the mayor does not ask for the president,
 * and "left" in a page is as often a side as a departure.
 */
const NARROWER = [
  "charge president mayor leader governor premier chancellor ruler king queen emperor minister head",
  // "When did Sri Lanka leave the British Empire?" is said "Ceylon was granted independence".
  "leave independence independent secede seceded secession withdraw withdrew withdrawal",
].map(stemmedGroup);

function stemmedGroup(group: string): string[] {
  return [...new Set(words(group).map(stem))];
}

/** The terms pages use for the same relations as these question terms (stemmed), other than the terms themselves. */
export function relationTerms(questionTerms: string[]): string[] {
  const asked = new Set(questionTerms);
  const out = new Set<string>();
  for (const group of [...GROUPS, ...SAME_SENSE]) {
    if (!group.some((term) => asked.has(term))) continue;
    for (const term of group) if (!asked.has(term)) out.add(term);
  }
  for (const [broad, ...narrower] of NARROWER) if (asked.has(broad!)) for (const term of narrower) if (!asked.has(term)) out.add(term);
  return [...out];
}

/** These terms and the words pages use for the same relations ("director" with "directed"). */
export function withRelations(questionTerms: string[]): Set<string> {
  return new Set([...questionTerms, ...relationTerms(questionTerms)]);
}

/** Words right before a name that state a relation: "directed by X", "married X", "born in X". */
export const CUE_BEFORE_NAME =
  /\b(?:by|married(?: to)?|wife|husband|son of|daughter of|in|at|near|from|for|of|as|to|with|is|was|called|named|known as|titled)\s*$/i;

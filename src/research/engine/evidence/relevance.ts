import type { EvidenceAnalysis } from "./analysis";
import { type Evidence, pageSaysWords } from "./store";
import { titleNames } from "./titles";
import { namesPerson, pageAttribution } from "./attribution";
import { ASKS_WHO_OR_WHEN, askedSubjects, type QueryAnalysis, SPEECH_VERBS, wordsForSaying } from "../question";
import type { Passage } from "./rank";
import { speaksOfItsKind } from "./named-kind";
import { withRelations } from "../language";
import { STOPWORDS, stem, words } from "../language";

/** Entity words, asked terms and their relation words: what a sentence must share with the question to belong in the brief. */
export function questionKeyTerms(query: QueryAnalysis, analysis: EvidenceAnalysis): Set<string> {
  const keys = withRelations(query.terms);
  for (const entity of [...analysis.entities, ...analysis.bridgeEntities.slice(0, 4)]) for (const word of words(entity)) keys.add(stem(word));
  for (const term of query.speakerTerms) keys.delete(term);
  return keys;
}

export function sharesKeyTerm(passage: Passage, keys: Set<string>): boolean {
  return passage.terms.some((term) => keys.has(term));
}

/** "Which presidents argued for free silver?": a sentence led by the opposite stance is not an answer. */
export function respectsStance(passage: Passage, query: QueryAnalysis): boolean {
  if (!query.stance) return true;
  const own = new Set(passage.terms);
  const opposite = query.stance.opposite.some((term) => own.has(term));
  const wanted = query.stance.wanted.some((term) => own.has(term));
  return !opposite || wanted;
}

/**
 * Whether anything read speaks to the question at all. A question that names something is
 * addressed when a page read is about it (its title names it, or holds every word of the name), or
 * a sentence names it beside what is asked of it; failing that, when a page read is titled by one
 * of the question's other words ("How did United States tariffs change?" and a page "McKinley
 * Tariff"), or a strong passage holds most of its other words. "Who won the 1998 FIFA World Cup?"
 * over presidential speeches is not: no page names the cup, the year in the title of Clinton's 1998
 * address is its date, not its subject, and "Tonight the cup of peril is full in Vietnam" is no
 * evidence. Nor is "Who wrote Harry Potter?" addressed by the addresses of Harry S Truman, or a
 * name said in passing, far from what is asked of it. A question
 * without names is addressed when a passage that scores holds most of its words (holdsMostOf:
 * "When was the iPhone released?" is not, by "he has been released"); a brief of a question
 * nothing addresses cites nothing and is charged only its metered work.
 */
export function addressesQuestion(query: QueryAnalysis, analysis: EvidenceAnalysis, evidence: Evidence): boolean {
  const ranked = analysis.ranked.filter((entry) => entry.score > 0);
  if (ranked.length === 0) return false;
  // Nor how it was said: "spoke" in "Which president spoke about Watergate?" is the speech itself,
  // and so is "coined the term" in "Which president coined the term axis of evil?".
  const saying = wordsForSaying(query.question);
  const focus = new Set(query.focusTerms.filter((term) => !query.speakerTerms.includes(term) && !SPEECH_VERBS.has(term) && !saying.has(term)));
  if (analysis.entities.length === 0) return holdsMostOf(query.question, focus, ranked);
  // What is asked of a name, not who or when: "Which president announced the Fair Deal?" asks
  // nothing more of "a fair deal" than that it was said.
  const ofTheName = new Set([...focus].filter((term) => !ASKS_WHO_OR_WHEN.has(term)));
  const rarest = rarestTerm(ofTheName, evidence);
  // The asked speakers too: "Kennedy and Johnson" is read as one name, and each is named by their pages.
  if ([...analysis.entities, ...askedSubjects(query)].some((entity) => isNamed(entity, ofTheName, rarest, evidence))) return true;
  // A measure known by a name its own time did not write ("the McKinley Tariff": "the tariff act of 1890").
  if (query.entities.some((entity) => speaksOfItsKind(entity, ranked))) return true;
  // A page titled by one of the asked words: not a year (a title's year is its date) and not one
  // word of a name the page does not carry whole ("Harry" of "Harry Potter" in "Harry S Truman").
  const nameWords = new Set(query.entities.flatMap((entity) => words(entity).map(stem)));
  const asked = new Set(query.terms.filter((term) => !query.speakerTerms.includes(term) && !nameWords.has(term) && !/^\d+$/.test(term)));
  if (ranked.some((entry) => entry.doc.passages[0]?.titleTerms.some((term) => asked.has(term)))) return true;
  // Or a strong passage says most of what is asked besides the names ("the emancipation
  // proclamation" in an address whose title names no one): half of those terms, and two at least.
  const needed = Math.max(Math.ceil(focus.size / 2), 2);
  return (
    focus.size >= 2 &&
    ranked.slice(0, 10).some((entry) => entry.best.slice(0, 5).some((item) => new Set(item.passage.terms.filter((term) => focus.has(term))).size >= needed))
  );
}

/** Sentences either side of one naming the entity that may hold what is asked of it. */
const NEAR_NAME = 2;

/**
 * Whether a page read is about the entity (its title names it, or holds every word of the name:
 * "Franklin D Roosevelt" for "Franklin Roosevelt", "Abraham Lincoln: ..." for "Lincoln's"; or its
 * speaker is the person under any form of the name), or a sentence names it with what the question
 * asks of it nearby (without other asked words, naming it is enough). What it asks: `rarest`, the
 * most specific word asked, the one fewest passages read hold ("tallest", not "mountain", in "the
 * tallest mountain in Africa"): a common word near the name ("Africa … mountain") says nothing.
 */
function isNamed(entity: string, focus: Set<string>, rarest: string | undefined, evidence: Evidence): boolean {
  const key = words(entity).join(" ");
  const nameTerms = words(entity)
    .map(stem)
    .filter((term) => !/^\d+$/.test(term));
  return evidence.docs.some((doc) => {
    if (titleNames(doc.title, entity)) return true;
    // A page of the person's own words, titled by another form of their name ("Theodore Roosevelt" for "Teddy Roosevelt").
    const speaker = pageAttribution(doc.title).speaker;
    if (speaker && namesPerson(speaker, entity)) return true;
    const titled = doc.passages[0]?.titleTerms;
    if (titled && nameTerms.length > 0 && nameTerms.every((term) => titled.includes(term))) return true;
    if (!pageSaysWords(doc, key)) return false;
    if (focus.size === 0) return true;
    const lines = doc.mentionKeys.split("\n");
    return lines.some((line, at) => {
      if (!` ${line} `.includes(` ${key} `)) return false;
      const near = doc.passages.slice(Math.max(0, at - NEAR_NAME), at + NEAR_NAME + 1);
      return near.some((passage) => passage.terms.some((term) => loose(term) === rarest));
    });
  });
}

/** The asked word, loosened ("issue" asked, "issued" read), that the fewest passages read hold. */
function rarestTerm(focus: Set<string>, evidence: Evidence): string | undefined {
  const held = new Map([...focus].map((term) => [loose(term), 0]));
  for (const doc of evidence.docs)
    for (const passage of doc.passages)
      for (const term of new Set(passage.terms.map(loose))) {
        const count = held.get(term);
        if (count !== undefined) held.set(term, count + 1);
      }
  return [...held.entries()].sort((a, b) => a[1] - b[1])[0]?.[0];
}

/** A stem without its final "e": "trade" and "trading" stem to "trade" and "trad". */
const loose = (term: string) => term.replace(/e$/, "");

/**
 * Whether the passages that score hold most of the asked words: more than half of them, or half
 * when one passage holds two together ("How did tariffs affect trade and the economy?" and
 * "retaliatory tariffs from trading partners"; "When was the iPhone released?" has only
 * "released", alone). Any scoring passage when nothing else is asked.
 */
function holdsMostOf(question: string, focus: Set<string>, ranked: EvidenceAnalysis["ranked"]): boolean {
  if (focus.size === 0) return true;
  const wanted = new Set([...focus].map(loose));
  // In one sentence: words of the question spread over unrelated sentences ("the Nation that
  // invented the automobile", a telephone elsewhere) do not speak to "Who invented the telephone?".
  // Topics the question joins with "and" are asked of alike: a sentence on tariffs speaks to
  // "tariffs and the railroads" (and one on trade to "trade and the economy").
  const joined = joinedTerms(question)
    .map((pair) => pair.map(loose))
    .filter((pair) => pair.every((term) => wanted.has(term)));
  const compounds = compoundTerms(question).filter((pair) => pair.every((term) => wanted.has(term)));
  let most = 0;
  for (const entry of ranked)
    for (const item of entry.best) {
      const own = new Set(item.passage.terms.map(loose).filter((term) => wanted.has(term)));
      for (const pair of joined) if (pair.some((term) => own.has(term))) for (const term of pair) own.add(term);
      // "the boiling point of water": a point without the boiling is another point ("a single point ... its waters").
      for (const [modifier, head] of compounds) if (!own.has(modifier)) own.delete(head);
      most = Math.max(most, own.size);
    }
  return most * 2 > wanted.size || (most * 2 === wanted.size && most >= 2);
}

/**
 * Two content words of a question side by side, the first saying which kind of the second is
 * meant ("boiling point", "space program"), as loose stems [modifier, head]. Lower-case words only:
 * capitalised ones are names, read whole elsewhere. A subject and its verb ("Which president
 * declared") are not one, and a question's own words for saying never reach here (not in `focus`).
 */
function compoundTerms(question: string): [string, string][] {
  const tokens = question.split(/[^\p{L}\p{N}'’-]+/u).filter(Boolean);
  const pairs: [string, string][] = [];
  for (let at = 1; at < tokens.length; at++) {
    const [modifier, head] = [tokens[at - 1]!, tokens[at]!];
    if (!/^\p{Ll}/u.test(modifier) || !/^\p{Ll}/u.test(head) || STOPWORDS.has(modifier) || STOPWORDS.has(head)) continue;
    // A verb is no modifier: "president declared war", "war declared" (a past form either side).
    if (/ed$/.test(modifier) || /(?:ed|ing)$/.test(head)) continue;
    // Nor the kind asked for, before its verb: "Which president vetoes …".
    if (/^(?:which|what|whose)$/i.test(tokens[at - 2] ?? "")) continue;
    pairs.push([loose(stem(modifier)), loose(stem(head))]);
  }
  return pairs;
}

/** The content words either side of each "and" of a question ("tariffs and the railroads": tariff, railroad), as stems. */
function joinedTerms(question: string): [string, string][] {
  const tokens = words(question);
  const pairs: [string, string][] = [];
  tokens.forEach((token, index) => {
    if (token !== "and") return;
    const before = tokens
      .slice(0, index)
      .reverse()
      .find((word) => !STOPWORDS.has(word));
    const after = tokens.slice(index + 1).find((word) => !STOPWORDS.has(word));
    if (before && after) pairs.push([stem(before), stem(after)]);
  });
  return pairs;
}

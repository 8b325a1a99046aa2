import { type EvidenceAnalysis, formalName } from "../evidence";
import { ASKS_WHO_OR_WHEN, asksAboutSpeech, type QueryAnalysis, SPEECH_VERBS, saidClaim } from "../question";
import { STOPWORDS, stem, unique, words } from "../language";
import { measureKind } from "../evidence/named-kind";
import { comparisonBranches } from "./comparison";

/** Words that ask who said or did something, not what: left out of the search for what. */
const FRAMING_WORDS = new Set(
  "president presidents speaker speakers leader leaders person people who which call called calls say said says talk talked speak spoke mention mentioned".split(
    " ",
  ),
);

/** Stems that ask who, when or how something was said: no words of what is asked of a person. */
const NOT_ASKED = new Set([...ASKS_WHO_OR_WHEN, ...[...FRAMING_WORDS].map(stem), ...SPEECH_VERBS]);

/**
 * The name of a thing of several words, as the question writes it after an article ("the Fair
 * Deal", "a second Bill of Rights"): searched as the phrase it is too, pages saying it whole rank
 * above pages saying "fair" and "deal" apart. A person's name has no article, and is not: their
 * pages may be titled by another form of it ("Franklin D Roosevelt") while other speakers' pages
 * say "Franklin Roosevelt" whole.
 */
function namesAThing(entity: string, question: string): boolean {
  const name = entity.trim();
  if (!/\s/.test(name)) return false;
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`\\b(?:the|a|an)\\s+(?:[a-z]+\\s+)?${escaped}\\b`).test(question);
}

/**
 * Wave 1 branches (sub-queries): the whole question, then each named entity on its own (a
 * title-weighted search finds the page about it), then the entity with what is asked about it.
 */
export function planBranches(query: QueryAnalysis, branches: number): string[] {
  const focus = query.focusTerms.slice(0, 6).join(" ");
  // A comparison of two subjects searches each with its topic first, so that even lite reads every side.
  const plan = [...comparisonBranches(query), query.question];
  // What someone is asked to have said is searched as the phrase it is, second, so lite has it too.
  const claim = saidClaim(query.question);
  if (claim) plan.push(`"${claim}"`);
  // A speaker the question names by a shortened name ("Teddy Roosevelt" for the pages'
  // "Theodore Roosevelt") is searched by its formal form next, so that even lite's two searches
  // find that person's pages. For other questions it comes after the names as written ("Frank
  // Mellor" is titled so, not "Franklin").
  // What is asked of the person: the question's other words but those asking who, when or how it
  // was said, and the other names it says ("What did JFK say about the Peace Corps?": 'John F
  // Kennedy "Peace Corps"'; "In which year did FDR ask for a second Bill of Rights?": 'Franklin D
  // Roosevelt second "Bill of Rights"').
  const asked = query.focusTerms.filter((term) => !NOT_ASKED.has(term));
  // A name of several words is searched as the phrase it is, or its words are lost among the person's speeches.
  const others = query.entities.filter((entity) => !formalName(entity)).map((entity) => (/\s/.test(entity.trim()) ? `"${entity.trim()}"` : entity));
  const about = [...asked, ...others].join(" ");
  const formalForms = about ? query.entities.flatMap((entity) => formalName(entity) ?? []) : [];
  const speaking = asksAboutSpeech(query);
  if (speaking) for (const formal of formalForms) plan.push(`${formal} ${about}`);
  // A measure named for someone is written by its kind in its own time ("the McKinley Tariff": "the tariff act").
  // One named for a place is written by what was done with it ("the Louisiana Purchase": "the cession of Louisiana").
  for (const entity of query.entities) {
    const measure = measureKind(entity);
    if (measure)
      plan.push(measure.saidAs ? `${entity.trim().split(/\s+/).slice(0, -1).join(" ")} cession acquisition` : `${entity.trim().split(/\s+/).pop()} act law`);
  }
  // The pages a chain or a comparison of facts starts from are searched by name first.
  if (query.hops) plan.push(query.hops.anchor);
  for (const side of query.comparison?.sides ?? []) plan.push(side.name);
  for (const entity of query.entities) plan.push(namesAThing(entity, query.question) ? `"${entity.trim()}" ${entity}` : entity);
  for (const option of query.options) plan.push(option);
  if (focus) for (const entity of query.entities) plan.push(`${entity} ${focus}`);
  if (!speaking) for (const formal of formalForms) plan.push(`${formal} ${about}`);
  // Without names, what is asked in its own words, without who asks for it: "new federalism" for
  // "Which president called for a new federalism?" (the question's framing words outweigh it).
  if (query.entities.length === 0) {
    const tokens = words(query.question);
    const isAsked = (word: string) => !STOPWORDS.has(word) && !FRAMING_WORDS.has(word) && query.focusTerms.includes(stem(word));
    const asked = tokens.filter(isAsked);
    // Words asked side by side are also searched as the phrase ("civil rights"): the index ranks
    // pages saying it above those holding "civil" and "rights" apart.
    const phrases = tokens.flatMap((word, index) => (index > 0 && isAsked(word) && isAsked(tokens[index - 1]!) ? [`"${tokens[index - 1]} ${word}"`] : []));
    if (asked.length >= 2) plan.push([...phrases, ...asked].join(" "));
  }
  if (query.entities.length === 0 && query.terms.length > 4) plan.push(query.terms.slice(0, Math.ceil(query.terms.length / 2)).join(" "));
  return unique(plan.map((text) => text.trim()).filter(Boolean)).slice(0, Math.max(1, branches));
}

/**
 * Follow-up queries for the next wave, targeting what is still missing: the next hop of the
 * question's chain, entities named in the
 * best passages (the next hop of a multi-hop question), question entities with no page yet,
 * and question terms no strong passage contains.
 */
export function followUpQueries(
  query: QueryAnalysis,
  analysis: EvidenceAnalysis,
  alreadySearched: Set<string>,
  limit: number,
  hopTargets: string[] = [],
): string[] {
  const focus = query.focusTerms.slice(0, 6).join(" ");
  // The unresolved hop of the question's chain comes first: its page is what the answer waits on.
  const candidates: string[] = [...hopTargets];
  for (const entity of analysis.bridgeEntities) candidates.push(entity);
  for (const entity of analysis.missingEntities) candidates.push(focus ? `${entity} ${focus}` : entity);
  if (analysis.missingTerms.length > 0) {
    const subject = query.entities[0] ?? analysis.ranked[0]?.doc.title ?? "";
    candidates.push(`${subject} ${analysis.missingTerms.join(" ")}`.trim());
  }
  const seen = new Set([...alreadySearched].map((text) => text.toLowerCase()));
  return unique(candidates.map((text) => text.trim()))
    .filter((text) => text && !seen.has(text.toLowerCase()))
    .slice(0, limit);
}

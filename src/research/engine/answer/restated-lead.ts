import { bareTitle, type Evidence, type EvidenceDoc, type Passage, pageSaysWords, titleNames } from "../evidence";
import type { QueryAnalysis } from "../question";
import { terms, words } from "../language";
import { askedKind, definitionOf, kindFromLead } from "./name-kind";
import { describedEntity, type ReachedEntity } from "./description";

/**
 * The page a question describes: "Which Danish heavy metal band from Copenhagen released a
 * compilation album of rare demo tracks?" restates the opening sentence of the answer's own page
 * ("Mercyful Fate is a Danish heavy metal band from Copenhagen"), and the answer is that page's
 * title, which no sentence of the other pages need say next to the question's words. On the
 * HotpotQA training questions the answer was the title of a supporting page for 14 in 100, and
 * for most of them no path proposed it.
 *
 * A page qualifies when its lead defines its subject ("X is a/an/the …") by the noun the question
 * asks for ("which … band"), of the kind asked (a person for "who"), and says more of the
 * question's words. A page tied to the question's own entities (a page about one of them names it,
 * or it names one: the question's other half) comes first, then the page that says the most; it
 * is proposed with how clearly it beat the next. Whether it is the answer is the calibrated
 * model's call (path `lead`): this proposes, it does not decide.
 */
export interface RestatedLead {
  text: string;
  /** The lead, then a sentence of a page about the question's own entity that names the answer, when one does. */
  basis: Passage[];
  docs: number[];
  /** Its share of its own and the next page's count of the question's words. */
  share: number;
  /** A page about an entity the question names says the answer's name (or the answer's page names that entity). */
  linked: boolean;
}

/** The question's words a lead must say besides its head noun. */
const MIN_SAID = 1;

export function restatedLead(
  query: QueryAnalysis,
  evidence: Evidence,
  described: ReachedEntity | null = query.description ? describedEntity(query.description, evidence) : null,
): RestatedLead | null {
  // A chain of hops asks an attribute of its last entity, which the chain path reads.
  if (query.kind !== "open" || query.comparison || query.hops || !["person", "place", "entity"].includes(query.expects)) return null;
  const head = askedHead(query.question);
  if (!head) return null;
  const asked = askedKind(query);
  // An entity the question only describes ("the country where the Bubye River is found") counts
  // once reached, as if the question named it ("the waterfall in Zimbabwe").
  const reached = described && described.missing === null && described.steps.length > 1 ? described.entity : null;
  const entities = reached ? [...query.entities, reached] : query.entities;
  const questionTerms = new Set([...query.terms, ...(reached ? terms(reached) : [])]);
  const questionKey = ` ${words(query.question).join(" ")} `;
  const scored: { doc: EvidenceDoc; lead: Passage; said: number }[] = [];
  for (const doc of evidence.docs) {
    const lead = doc.passages[0];
    const title = bareTitle(doc.title).trim();
    const key = words(title).join(" ");
    // A page the question names is what it asks about, not its answer.
    if (!lead || key === "" || questionKey.includes(` ${key} `) || entities.some((entity) => titleNames(doc.title, entity))) continue;
    // The lead is about the page's subject: a word of its name opens the sentence ("The markka was" for "Finnish markka").
    const opening = words(lead.text).slice(0, 6);
    const openingTerms = new Set(terms(opening.join(" ")));
    if (!terms(title).some((term) => openingTerms.has(term)) && !opening.includes(words(title)[0]!)) continue;
    const definition = definitionOf(lead.text);
    if (!definition) continue;
    // The noun asked for must be in what the lead defines its subject as ("a 1988 Telugu comedy
    // film" for "which 1988 Telugu comedy", "an American television and film actor" for "which
    // television and movie actor"), up to where a clause opens.
    if (!terms(definedAs(definition.rest)).includes(head)) continue;
    const kind = kindFromLead(lead.text);
    if (asked && kind !== asked) continue;
    // A word of a name the question says counts only with the whole name ("Big Stone County" restates nothing of "Big Stone Gap").
    const leadKey = ` ${words(lead.text).join(" ")} `;
    const unsaid = new Set(
      query.entities.flatMap((entity) => {
        const name = words(entity).join(" ");
        return name.includes(" ") && !leadKey.includes(` ${name} `) ? terms(entity) : [];
      }),
    );
    const said = new Set(terms(definition.rest).filter((term) => term !== head && questionTerms.has(term) && !unsaid.has(term))).size;
    if (said >= MIN_SAID) scored.push({ doc, lead, said });
  }
  if (scored.length === 0) return null;
  // A page the question's own entity leads to (its page names the answer, or the answer's page
  // names it) is the question's other half, read first; then the page that says the most.
  const ranked = scored
    .map((entry) => ({ ...entry, ...linkOf(entities, evidence, entry.doc) }))
    .sort((a, b) => Number(b.linked) - Number(a.linked) || b.said - a.said);
  const best = ranked[0]!;
  const next = ranked.find((entry) => entry !== best && entry.linked === best.linked)?.said ?? 0;
  return {
    text: bareTitle(best.doc.title).trim(),
    basis: best.link ? [best.lead, best.link] : [best.lead],
    docs: best.link ? [best.doc.index, best.link.doc] : [best.doc.index],
    share: best.said / (best.said + next),
    linked: best.linked,
  };
}

/**
 * "is an American television and film actor, best known …" -> "is an American television and film
 * actor": the words up to a clause, a preposition or a participle ("a vice admiral awarded the
 * Medal of Honor" is no medal; "a landlocked country" is a country).
 */
function definedAs(rest: string): string {
  const kept: string[] = [];
  for (const [index, word] of rest.split(/\s+/).entries()) {
    if (/[,;:()]/.test(word)) {
      kept.push(word.replace(/[,;:()].*$/, ""));
      break;
    }
    if (index >= 14 || /^(?:who|that|which|whose|where|when|in|of|from|by|with|for|on|at|to|since)$/i.test(word) || (index > 2 && /ed$/i.test(word))) break;
    kept.push(word);
  }
  return kept.join(" ");
}

/**
 * How a page is tied to the question's own entities: a sentence of a page about one of them that
 * names the page's subject (`link`), or the page itself naming one of them.
 */
function linkOf(entities: readonly string[], evidence: Evidence, page: EvidenceDoc): { link: Passage | null; linked: boolean } {
  const name = words(bareTitle(page.title)).join(" ");
  for (const doc of evidence.docs) {
    // The page's words are looked up whole first; only a page that says the name is read sentence by sentence.
    if (doc === page || !entities.some((entity) => titleNames(doc.title, entity)) || !pageSaysWords(doc, name)) continue;
    const link = doc.passages.find((entry) => ` ${words(entry.text).join(" ")} `.includes(` ${name} `));
    if (link) return { link, linked: true };
  }
  return { link: null, linked: entities.some((entity) => pageSaysWords(page, words(entity.split(",")[0]!).join(" "))) };
}

/**
 * The head of the noun a wh-phrase asks for: "country" in "What landlocked country located in …",
 * "band" in "What is the name of the pop band founded by …", "politician" in "to which Queensland
 * Senator Australian politician, who …"; null when the question asks by no noun ("Who …", "of what?").
 */
export function askedHead(question: string): string | null {
  const match = /\b(?:what|which)\s+(?:(?:is|was)\s+(?:the\s+name\s+of\s+)?(?:an?|the)\s+)?([^,;:?]+)/i.exec(question);
  if (!match) return null;
  const phrase: string[] = [];
  for (const [index, word] of match[1]!.split(/\s+/).entries()) {
    // An -ed word opens a noun phrase as an adjective ("landlocked country") and ends one as a verb ("country located").
    // "What is the place of birth of X" asks an attribute of a name, not for a name by its kind.
    if (/^of$/i.test(word)) return null;
    if (index >= 5 || (VERB_LIKE.test(word) && !(index === 0 && /ed$/i.test(word)))) break;
    phrase.push(word);
  }
  const last = terms(phrase.join(" ")).pop();
  return last ?? null;
}

const VERB_LIKE =
  /^(?:is|was|are|were|has|have|had|did|does|do|can|could|will|would|that|which|who|whose|whom|where|when|in|on|at|of|for|from|by|to|with|as|\w+ed)$/i;

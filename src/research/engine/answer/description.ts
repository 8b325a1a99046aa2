import { analyzeEvidence, type Evidence, type Passage } from "../evidence";
import { analyzeQuestion, type EmbeddedDescription, type QueryAnalysis, substitutedQuestion } from "../question";
import { stem, words } from "../language";
import { type ChainStep, resolveChain } from "./chain";
import { findAnswer } from "./extract";

/**
 * An open question asked of an entity the question only describes ("the waterfall in the country
 * where the Bubye River is found"): the description's chain is followed hop by hop, each hop read
 * in a sentence (answer/chain.ts), to the described entity's page; there the question, with the
 * entity's name in the description's place ("What is the name of the waterfall in Zimbabwe?"), is
 * read like a single-hop question, on that page only. The answer's probability is the calibrated
 * model's (path `description`): this proposes, it does not decide.
 */
export interface DescribedAnswer {
  text: string;
  /** The hops' sentences, then the answer's own. */
  basis: Passage[];
  docs: number[];
  /** The entity the description reached, whose page answered. */
  entity: string;
  /** The question as read on that page. */
  asked: string;
  steps: ChainStep[];
  /** The answer stands on the entity's own page (else on a page that names it, found by the question about it). */
  onEntityPage: boolean;
  /** How clearly the span won on the page (its share of its own and the runner-up's score). */
  share: number;
  /** The span's sentence says a word of what is asked within a few words of it. */
  near: boolean;
  /** The span's sentence is the page's lead. */
  lead: boolean;
}

/** Words between the span and a word of what is asked for the span to count as stated next to it. */
const NEAR_WITHIN = 5;

/** The page of the entity a description reaches, and the chain that reached it; null when a hop was not read. */
export function describedEntity(description: EmbeddedDescription, evidence: Evidence): { entity: string; steps: ChainStep[]; missing: string | null } {
  const resolved = resolveChain(
    { anchor: description.anchor, relations: description.relations, attribute: "identity", subjectPhrase: description.phrase },
    evidence,
  );
  const last = resolved.steps[resolved.steps.length - 1]!;
  const reached = resolved.steps.length === description.relations.length + 1;
  return { entity: last.entity, steps: resolved.steps, missing: reached ? null : resolved.missing };
}

/** Pages besides the entity's own that the question about it is read on: the best of the substituted question's. */
const OTHER_PAGES = 4;

export function describedAnswer(query: QueryAnalysis, evidence: Evidence): DescribedAnswer | null {
  const description = query.description;
  if (!description || query.kind !== "open") return null;
  const { entity, steps, missing } = describedEntity(description, evidence);
  if (missing !== null || steps.length < 2) return null;
  const asked = substitutedQuestion(description, entity);
  const single = analyzeQuestion(asked);
  const ranked = analyzeEvidence(evidence, single).ranked.filter((entry) => entry.score > 0);
  // The entity's own page first (a place's page says what is in it); else the pages that best
  // answer the question about it, where a sentence or the title names the entity.
  const own = steps[steps.length - 1]!.doc;
  const entityKey = words(entity.split(",")[0]!).join(" ");
  const namesEntity = (text: string) => ` ${words(text).join(" ")} `.includes(` ${entityKey} `);
  const visited = new Set(steps.slice(0, -1).flatMap((step) => (step.doc ? [step.doc.index] : [])));
  const pages = own
    ? ranked.filter((entry) => entry.doc === own)
    : ranked
        .filter((entry) => !visited.has(entry.doc.index) && (namesEntity(entry.doc.title) || entry.best.some((item) => namesEntity(item.passage.text))))
        .slice(0, OTHER_PAGES);
  if (pages.length === 0) return null;
  const span = findAnswer(single, pages, [...single.entities, entity], pages[0]);
  if (!span || !pages.some((entry) => entry.doc.index === span.passage.doc)) return null;
  const page = pages.find((entry) => entry.doc.index === span.passage.doc)!;
  if (!own && !namesEntity(page.doc.title) && !namesEntity(span.passage.text)) return null;
  // The entities the chain passed through are its links, not what is asked of its end.
  const key = words(span.text).join(" ");
  if (key === entityKey || steps.some((step) => words(step.entity).join(" ") === key)) return null;
  const links = steps.flatMap((step) => (step.passage ? [step.passage] : []));
  return {
    text: span.text,
    basis: [...links, span.passage],
    docs: [...new Set([...steps.flatMap((step) => (step.doc ? [step.doc.index] : [])), page.doc.index])],
    entity,
    asked,
    steps,
    onEntityPage: own !== null,
    share: span.share ?? 1,
    near: statedNear(single, span.text, span.passage),
    lead: span.passage.position < 2,
  };
}

function statedNear(query: QueryAnalysis, span: string, passage: Passage): boolean {
  const asked = new Set(query.focusTerms);
  const tokens = words(passage.text);
  const spanWords = words(span);
  const at = tokens.findIndex((_, index) => spanWords.every((word, offset) => tokens[index + offset] === word));
  if (at < 0 || asked.size === 0) return false;
  return tokens.some((token, index) => (index < at ? at - index : index - (at + spanWords.length - 1)) <= NEAR_WITHIN && asked.has(stem(token)));
}

import { analyzeEvidence, bareTitle, type Evidence, type EvidenceDoc, type Passage, type RankedDoc, titleIsAspectOf } from "../evidence";
import { analyzeQuestion, capitalisedEntities, type EmbeddedDescription, NOT_NAMES, type QueryAnalysis, substitutedQuestion } from "../question";
import { demonymsOf, saysPhrase, stem, terms, words } from "../language";
import { type ChainStep, pageAbout, resolveChain } from "./chain";
import { findAnswer } from "./extract";
import { askedWordNear } from "./span-signals";

/**
 * An open question asked of an entity the question only describes ("the waterfall in the country
 * where the Bubye River is found"): the description's chain is followed hop by hop, each hop read
 * in a sentence (answer/chain.ts), to the described entity's page; there the question, with the
 * entity's name in the description's place ("What is the name of the waterfall in Zimbabwe?"), is
 * read like a single-hop question, on that page, else on the pages for it that name the entity.
 * The answer's probability is the calibrated model's (path `description`): this proposes, it
 * does not decide.
 */
export interface DescribedAnswer {
  text: string;
  /** The hops' sentences, then the answer's own. */
  basis: Passage[];
  docs: number[];
  /** The entity the description reached. */
  entity: string;
  /** The question as read on that page, analysed. */
  asked: QueryAnalysis;
  /** What the answer is read in: its sentence, and its page's lead, which frames what the page is about. */
  frame: Passage[];
  steps: ChainStep[];
  /** The answer stands on the entity's own page (else on a page that names it, found by the question about it). */
  onEntityPage: boolean;
  /** How clearly the span won on the page (its share of its own and the runner-up's score). */
  share: number;
  /** The span's sentence says a word of what is asked within a few words of it. */
  near: boolean;
}

/** The entity a description reaches and the chain that reached it; `missing` names the page still to read when a hop was not. */
export function describedEntity(description: EmbeddedDescription, evidence: Evidence): { entity: string; steps: ChainStep[]; missing: string | null } {
  if (description.clause) return clauseEntity(description, description.clause, evidence);
  const resolved = resolveChain(
    { anchor: description.anchor, relations: description.relations, attribute: "identity", subjectPhrase: description.phrase },
    evidence,
  );
  const last = resolved.steps[resolved.steps.length - 1]!;
  const reached = resolved.steps.length === description.relations.length + 1;
  return { entity: last.entity, steps: resolved.steps, missing: reached ? null : resolved.missing };
}

/** Sentences of a page looked through for the one a relative clause describes. */
const CLAUSE_SENTENCES = 40;

/**
 * The entity a relative clause describes ("the woman who portrayed Corliss Archer in the film
 * Kiss and Tell"): on the page of a name the clause holds (the last first: "Kiss and Tell"), the
 * sentence that says most of the clause's other words, and in it the name nearest to them that
 * is neither the clause's own names nor the page's subject, preferring one with a page of its
 * own ("Shirley Temple as Corliss Archer"). Missing: the page of the clause's name, when none was read.
 */
function clauseEntity(
  description: EmbeddedDescription,
  clause: NonNullable<EmbeddedDescription["clause"]>,
  evidence: Evidence,
): { entity: string; steps: ChainStep[]; missing: string | null } {
  const own = new Set(clause.names.map((name) => words(name).join(" ")));
  const clauseTerms = new Set(terms(clause.text).filter((term) => !clause.names.some((name) => words(name).map(stem).includes(term))));
  const nounTerms = new Set(terms(clause.noun).filter((term) => !clauseTerms.has(term)));
  let best: { entity: string; steps: ChainStep[]; score: number } | null = null;
  let firstMissing: string | null = null;
  for (const name of [...clause.names].reverse()) {
    const doc = pageAbout(evidence, name);
    if (!doc) {
      firstMissing ??= name;
      continue;
    }
    const subject = words(bareTitle(doc.title)).join(" ");
    for (const passage of doc.passages.slice(0, CLAUSE_SENTENCES)) {
      const tokens = words(passage.text);
      const said = tokens.map((token) => clauseTerms.has(stem(token)));
      // The clause's other names count most ("as Lucy Vane" says "who portrayed Lucy Vane" without the verb).
      const namesSaid = clause.names.filter((other) => other !== name && ` ${tokens.join(" ")} `.includes(` ${words(other).join(" ")} `)).length;
      // So does the clause's noun ("the band that made …": "a live EP by the … band Iron Maiden").
      const nounSaid = tokens.map((token) => nounTerms.has(stem(token)));
      const score = said.filter(Boolean).length + 2 * namesSaid + 2 * nounSaid.filter(Boolean).length;
      if (score === 0 || (best && score <= best.score)) continue;
      const candidates = capitalisedEntities(passage.text, { leadingNumbers: false }).filter((entity) => {
        const key = words(entity).join(" ");
        return key.length > 0 && !own.has(key) && key !== subject && !subject.includes(key) && !NOT_NAMES.has(entity.toLowerCase());
      });
      const distance = (entity: string) => {
        const at = tokens.indexOf(words(entity)[0]!);
        const near = said.flatMap((hit, index) => (hit || nounSaid[index] ? [Math.abs(index - at)] : []));
        for (const other of clause.names) {
          const where = tokens.indexOf(words(other)[0] ?? "");
          if (where >= 0) near.push(Math.abs(where - at));
        }
        return at < 0 || near.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...near);
      };
      // Each candidate's page and distance looked up once, not in every comparison of the sort.
      const ranked = candidates
        .map((entity) => ({ entity, hasPage: pageAbout(evidence, entity) !== null, distance: distance(entity) }))
        .sort((a, b) => Number(b.hasPage) - Number(a.hasPage) || a.distance - b.distance);
      const entity = ranked[0]?.entity;
      if (!entity) continue;
      best = {
        entity,
        score,
        steps: [
          { entity: name, doc, passage: null, ambiguous: false },
          { entity, doc: pageAbout(evidence, entity, [doc]), passage, ambiguous: candidates.length > 1 },
        ],
      };
    }
  }
  if (best) return { entity: best.entity, steps: best.steps, missing: null };
  return {
    entity: description.anchor,
    steps: [{ entity: description.anchor, doc: null, passage: null, ambiguous: false }],
    missing: firstMissing ?? description.anchor,
  };
}

/** Pages besides the entity's own that the question about it is read on: the best of the substituted question's. */
const OTHER_PAGES = 4;

/** What `describedEntity` reached: read once per question, for the description path and the lead path. */
export type ReachedEntity = ReturnType<typeof describedEntity>;

export function describedAnswer(
  query: QueryAnalysis,
  evidence: Evidence,
  reached: ReachedEntity | null = query.description ? describedEntity(query.description, evidence) : null,
): DescribedAnswer | null {
  const description = query.description;
  if (!description || query.kind !== "open" || !reached) return null;
  const { entity, steps, missing } = reached;
  if (missing !== null || steps.length < 2) return null;
  const asked = substitutedQuestion(description, entity);
  const single = analyzeQuestion(asked);
  const ranked = analyzeEvidence(evidence, single).ranked.filter((entry) => entry.score > 0);
  // The entity's own page first (a place's page says what is in it); else the pages that best
  // answer the question about it, where a sentence or the title names the entity.
  const own = steps[steps.length - 1]!.doc;
  const entityKey = words(entity.split(",")[0]!).join(" ");
  const namesEntity = (text: string) => saysPhrase(text, entityKey);
  // A page titled by the entity's demonym is on one side of it ("Sri Lankan independence
  // movement", "Finnish markka"): its sentences may say only an older name ("Ceylon was granted
  // independence"). Titles only: "an American film" says nothing of the United States.
  const demonyms = demonymsOf(entity);
  const titleNamesEntity = (title: string) => namesEntity(title) || demonyms.some((demonym) => saysPhrase(title, demonym));
  const visited = new Set(steps.slice(0, -1).flatMap((step) => (step.doc ? [step.doc.index] : [])));
  // A page on one side of the entity ("History of Mississippi") stands for its own page, which may not be read.
  const entityPage = (doc: EvidenceDoc) => doc === own || titleIsAspectOf(doc.title, entity);
  const ownPage = ranked.filter((entry) => entityPage(entry.doc));
  const otherPages = () =>
    ranked
      .filter(
        (entry) =>
          !entityPage(entry.doc) &&
          !visited.has(entry.doc.index) &&
          (titleNamesEntity(entry.doc.title) || entry.best.some((item) => namesEntity(item.passage.text))),
      )
      .slice(0, OTHER_PAGES);
  // Every other name the question asks of is said where the answer stands: "When did the first
  // Walmart open in Maryland?" is not answered by a sentence of Maryland's history that says
  // nothing of Walmart ("In 1634, the first settlers …").
  const entityWords = new Set(words(entity));
  const others = single.entities.filter((name) => !words(name).every((word) => entityWords.has(word)));
  const read = (pages: RankedDoc[]) => {
    const span = pages.length > 0 ? findAnswer(single, pages, [...single.entities, entity], evidence, pages[0]) : null;
    const page = span ? pages.find((entry) => entry.doc.index === span.passage.doc) : undefined;
    if (!span || !page) return null;
    // The page's lead frames what the page is about as its title does ("… independence … for Sri
    // Lanka, then Ceylon, from the British Empire"), for a sentence further on that says only the date.
    const frame = frameOf(span.passage, page.doc);
    const framing = [page.doc.title, ...frame.map((passage) => passage.text)];
    return others.every((name) => framing.some((text) => saysPhrase(text, name))) ? { span, page, frame } : null;
  };
  // Where the entity's own page says nothing of what is asked, a page that names it may ("the
  // Leader of Opposition (Uganda)" page, for "the opposition leader in Uganda"); but not a count,
  // which is its own page's subject's (a city's population, for its state's).
  const found = read(ownPage) ?? (own && single.expects === "number" ? null : read(otherPages()));
  if (!found) return null;
  const { span, page, frame } = found;
  const onEntityPage = entityPage(page.doc);
  if (!onEntityPage && !titleNamesEntity(page.doc.title) && !namesEntity(span.passage.text)) return null;
  // The entities the chain passed through are its links, not what is asked of its end.
  const key = words(span.text).join(" ");
  if (key === entityKey || steps.some((step) => words(step.entity).join(" ") === key)) return null;
  const links = steps.flatMap((step) => (step.passage ? [step.passage] : []));
  return {
    text: span.text,
    basis: [...links, span.passage],
    docs: [...new Set([...steps.flatMap((step) => (step.doc ? [step.doc.index] : [])), page.doc.index])],
    entity,
    asked: single,
    frame,
    steps,
    onEntityPage,
    share: span.share ?? 1,
    near: statedNear(single, span.text, span.passage),
  };
}

/** What an answer is read in: its page's lead, which frames what the page is about, and its own sentence. */
function frameOf(passage: Passage, doc: EvidenceDoc): Passage[] {
  const lead = doc.passages[0];
  return lead && lead !== passage ? [lead, passage] : [passage];
}

function statedNear(query: QueryAnalysis, span: string, passage: Passage): boolean {
  const asked = new Set(query.focusTerms);
  return asked.size > 0 && askedWordNear(passage.text, span, asked) === true;
}

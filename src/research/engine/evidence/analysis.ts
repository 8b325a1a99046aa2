import { type EvidenceDoc, type Evidence, weightedTerms } from "./store";
import { bareTitle, textNamesTitle, titleNames, titleRefersTo } from "./titles";
import { CUE_BEFORE_NAME, relationTerms, withRelations } from "../language";
import { capitalisedEntities, type QueryAnalysis } from "../question";
import type { Passage } from "./rank";
import { keepAskedSpeaker } from "./asked-speaker";
import { namesPerson, pageAttribution } from "./attribution";
import { stem, unique, words } from "../language";

export interface ScoredPassage {
  passage: Passage;
  score: number;
}

export interface RankedDoc {
  doc: EvidenceDoc;
  score: number;
  /** Its best passages, best first. */
  best: ScoredPassage[];
  /**
   * Set when the doc was reached through an entity named in another doc's passage (a second
   * hop): the strongest of its `links`.
   */
  via?: Link;
  /** Every passage of a top page that names this doc, with how close the name stands there to what the question names or asks through. */
  links?: Link[];
}

export interface Link {
  doc: EvidenceDoc;
  passage: Passage;
  entity: string;
  near: number;
}

export interface EvidenceAnalysis {
  ranked: RankedDoc[];
  /** The weighted question terms passages were scored against. */
  weights: Map<string, number>;
  /** Entities named in the best passages that the question does not name: the next hop. */
  bridgeEntities: string[];
  /** Question entities with no page about them and no passage naming them yet. */
  missingEntities: string[];
  /** Question terms that no strong passage contains yet. */
  missingTerms: string[];
  /**
   * What the question names: its capitalised entities and quoted phrases, plus the titles of
   * pages it names in any case or spelling ("who founded the company that makes the iphone").
   */
  entities: string[];
}

const ANCHORS = 4;
const SECOND_PASSAGE_WEIGHT = 0.3;
const THIRD_PASSAGE_WEIGHT = 0.1;

/**
 * A page dated by its title (a speech of 1834, "2014 S/S") outside the asked period counts for
 * less; pages without a year in their title are not judged.
 */
function periodFactor(doc: EvidenceDoc, period: QueryAnalysis["period"]): number {
  return period && datedOutside(doc.title, period) ? 0.3 : 1;
}

/** A title that names years ("…: State of the Union address, 1897") all outside the period; a title without a year is not judged. */
export function datedOutside(title: string, period: { from: number; to: number }): boolean {
  const years = [...title.matchAll(/\b(1\d{3}|20\d{2})\b/g)].map((match) => Number(match[1]));
  return years.length > 0 && years.every((year) => year < period.from || year > period.to);
}

/**
 * How close a name stands to what the question names, or to the link it asks through, in a
 * passage: of several names with a page in one passage, the nearest is the link ("stars Marlon
 * Brando as Vito Corleone, ... and Al Pacino as his son": the actor who played Vito Corleone is
 * Brando; "Zinedine Zidane scoring two headers ... and Emmanuel Petit adding a third": the player
 * who scored twice is Zidane). A passage that holds neither says nothing either way.
 */
const UNANCHORED = 0.5;

function closeness(text: string, name: string, entities: string[], links: Set<string>): number {
  const lower = text.toLowerCase();
  const at = lower.indexOf(name.toLowerCase());
  if (at < 0) return 1;
  const nameStart = words(text.slice(0, at)).length;
  const nameEnd = nameStart + words(name).length;
  const gap = (start: number, end: number) => (start >= nameEnd ? start - nameEnd : nameStart >= end ? nameStart - end : 0);
  let nearest = Infinity;
  for (const entity of entities) {
    for (let from = lower.indexOf(entity.toLowerCase()); from >= 0; from = lower.indexOf(entity.toLowerCase(), from + 1)) {
      const start = words(text.slice(0, from)).length;
      nearest = Math.min(nearest, gap(start, start + words(entity).length));
    }
  }
  words(text).forEach((word, index) => {
    if (links.has(stem(word))) nearest = Math.min(nearest, gap(index, index + 1));
  });
  return nearest === Infinity ? UNANCHORED : 1 / (1 + Math.max(0, nearest - 1) / 6);
}

function entityKey(entity: string): string {
  return words(entity).join(" ");
}

/**
 * What each page was found to say, by entity key: a page never changes once read, and every wave's
 * analysis (and the synthesis's) asks the pages read before about mostly the same names again.
 */
const mentionsByDoc = new WeakMap<EvidenceDoc, Map<string, boolean>>();

/** Whether a sentence of the page names the entity key (the page's `mentionKeys` hold one sentence a line). */
function sentenceMentions(doc: EvidenceDoc, key: string): boolean {
  let known = mentionsByDoc.get(doc);
  if (!known) {
    known = new Map();
    mentionsByDoc.set(doc, known);
  }
  let mentions = known.get(key);
  if (mentions === undefined) {
    mentions = doc.sentences.length > 0 && doc.mentionKeys.includes(key);
    known.set(key, mentions);
  }
  return mentions;
}

/**
 * Ranks what was read against the question and finds what is still missing. A page scores by
 * its best passage (BM25, title as a field), plus a bonus when its title names a question
 * entity; a page whose title is an entity named in a top passage of an anchor page inherits
 * part of that passage's score (multi-hop: "the woman who portrayed X" -> her own page).
 */
export function analyzeEvidence(evidence: Evidence, query: QueryAnalysis): EvidenceAnalysis {
  // Pages the question names by title, whatever its capitals or spelling, are question entities too.
  const namedTitles = evidence.docs.filter((doc) => textNamesTitle(query.question, doc.title, { allowTypos: true })).map((doc) => bareTitle(doc.title));
  const entities = unique([...query.entities, ...namedTitles.filter((title) => !query.entities.some((entity) => entityKey(entity) === entityKey(title)))]);
  // Relation words a page uses for what the question asks ("directed" for "director").
  const weights = weightedTerms(query.terms, entities, relationTerms(query.terms), 0.7);
  for (const term of query.speakerTerms) weights.set(term, 0.25);
  for (const term of nameFormTerms(query, evidence)) weights.set(term, NAME_FORM_WEIGHT);
  const direct = rankOnOwnPassages(evidence, query, entities, weights);

  const { bridgeScores, linksByDoc } = secondHop(evidence, query, entities, direct);
  const linked = direct.map((entry) => inheritThroughLinks(entry, linksByDoc.get(entry.doc.index), evidence, query));
  linked.sort((a, b) => b.score - a.score);
  const ranked = keepAskedSpeaker(query, linked);

  const bridgeEntities = [...bridgeScores.entries()].sort((a, b) => b[1] - a[1]).map(([entity]) => entity);
  const missingEntities = query.entities.filter(
    (entity) => !evidence.docs.some((doc) => titleNames(doc.title, entity) || sentenceMentions(doc, entityKey(entity))),
  );
  const strong = ranked.slice(0, ANCHORS).flatMap((entry) => entry.best.slice(0, 3).map((item) => item.passage.terms));
  const covered = new Set(strong.flat());
  const missingTerms = query.terms.filter((term) => !covered.has(term));
  // Specific names first: an entity most pages read already mention ("United States",
  // "London") is background, not the next hop.
  const mentions = (entity: string) => {
    const key = entityKey(entity);
    return evidence.docs.filter((doc) => entityKey(doc.title).includes(key) || sentenceMentions(doc, key)).length;
  };
  const generic = new Set(unique(bridgeEntities).filter((entity) => mentions(entity) > Math.max(2, evidence.docs.length * 0.25)));
  const ordered = [...unique(bridgeEntities).filter((entity) => !generic.has(entity)), ...generic];
  return { ranked, weights, bridgeEntities: ordered, missingEntities, missingTerms, entities };
}

/** The weight of a word the question names a speaker by that no page's speaker is titled with. */
const NAME_FORM_WEIGHT = 0.05;

/**
 * Words of a speaker's name as the question writes it that no page read writes in its speaker's
 * name ("bill" of "Bill Clinton", whose pages are "William J Clinton: …"): how the question names
 * him, not what it asks. Weighted as content, "the crime bill" outranked his sentences on the topic.
 */
function nameFormTerms(query: QueryAnalysis, evidence: Evidence): string[] {
  const speakers = unique(evidence.docs.flatMap((doc) => pageAttribution(doc.title).speaker ?? []));
  if (speakers.length === 0) return [];
  const titled = new Set(speakers.flatMap((speaker) => words(speaker).map(stem)));
  return query.entities
    .filter((entity) => speakers.some((speaker) => namesPerson(speaker, entity)))
    .flatMap((entity) => words(entity).map(stem))
    .filter((term) => !titled.has(term));
}

/** Every page ranked on its own passages, best first. */
function rankOnOwnPassages(evidence: Evidence, query: QueryAnalysis, entities: string[], weights: Map<string, number>): RankedDoc[] {
  const scored = evidence.score(weights);
  const byDoc = new Map<number, ScoredPassage[]>();
  for (const entry of scored) {
    const list = byDoc.get(entry.passage.doc) ?? [];
    list.push(entry);
    byDoc.set(entry.passage.doc, list);
  }
  const direct: RankedDoc[] = evidence.docs.map((doc) => {
    const best = (byDoc.get(doc.index) ?? []).sort((a, b) => b.score - a.score);
    // The best passage decides, the next ones add: a page that answers in several sentences
    // beats one with a single lucky match.
    const top = (best[0]?.score ?? 0) + SECOND_PASSAGE_WEIGHT * (best[1]?.score ?? 0) + THIRD_PASSAGE_WEIGHT * (best[2]?.score ?? 0);
    // `entities` holds the pages the question names by title, so titleNames covers them too.
    const namesEntity = entities.some((entity) => titleNames(doc.title, entity));
    return { doc, score: top * (namesEntity ? 1.5 : 1) * periodFactor(doc, query.period), best };
  });
  direct.sort((a, b) => b.score - a.score);
  return direct;
}

/** A link that reaches a page, with the score the page would inherit through it. */
type ScoredLink = Link & { score: number };

/**
 * Second hop: entities in the anchors' best passages that have a page of their own. Returns
 * each entity named there with its score as the next hop, and every link that reaches a page.
 */
function secondHop(
  evidence: Evidence,
  query: QueryAnalysis,
  entities: string[],
  direct: RankedDoc[],
): { bridgeScores: Map<string, number>; linksByDoc: Map<number, ScoredLink[]> } {
  const questionKeys = new Set(entities.map(entityKey));
  const questionTerms = new Set(query.terms);
  const bridgeScores = new Map<string, number>();
  const askedLinks = new Set(query.linkTerms);
  const linkWords = withRelations(query.linkTerms);
  const linksByDoc = new Map<number, ScoredLink[]>();
  for (const anchor of direct.slice(0, ANCHORS)) {
    if (anchor.score <= 0) continue;
    // Its two best passages, and the best one saying the link the question names ("the Queen
    // member who wrote X": "Written by Freddie Mercury, the song ...").
    const linking = anchor.best.slice(2, 8).find((item) => item.passage.terms.some((term) => linkWords.has(term)));
    for (const entry of [...anchor.best.slice(0, 2), ...(linking ? [linking] : [])]) {
      const leads = capitalisedEntities(entry.passage.text, { leadingNumbers: false }).filter((entity) => {
        const key = entityKey(entity);
        if (!key || questionKeys.has(key) || titleNames(anchor.doc.title, entity)) return false;
        // An entity made only of question words ("Kiss", "Tell") is not a new lead.
        if (words(entity).every((word) => questionTerms.has(stem(word)))) return false;
        return !/^\d+$/.test(key);
      });
      for (const entity of leads) {
        // A name right after a relation word ("directed by X", "married X") is the likelier next hop.
        const at = entry.passage.text.indexOf(entity);
        const cued = at > 0 && CUE_BEFORE_NAME.test(entry.passage.text.slice(Math.max(0, at - 30), at));
        const value = entry.score * (cued ? 1.5 : 1);
        bridgeScores.set(entity, Math.max(bridgeScores.get(entity) ?? 0, value));
      }
      // Names of this passage that have a page read, and how close each stands to what the question names.
      const targets = leads.flatMap((entity) =>
        evidence.docs
          .filter((doc) => doc.index !== anchor.doc.index && titleRefersTo(doc.title, entity))
          .map((doc) => ({ doc, entity, near: closeness(entry.passage.text, entity, entities, askedLinks) })),
      );
      const nearest = Math.max(...targets.map((target) => target.near), 1e-9);
      for (const { doc, entity, near } of targets) {
        // A page named in full ("James Madison") is likelier meant than one sharing a surname ("Dolley Madison").
        // A surname several pages share is ambiguous.
        const exact = titleNames(doc.title, entity) ? 1 : targets.filter((other) => other.entity === entity).length > 1 ? 0.5 : 0.8;
        const inherited = entry.score * 0.9 * (near / nearest) * exact;
        const links = linksByDoc.get(doc.index) ?? [];
        links.push({ doc: anchor.doc, passage: entry.passage, entity, near, score: inherited });
        linksByDoc.set(doc.index, links);
      }
    }
  }
  return { bridgeScores, linksByDoc };
}

/** A page that links reach: it records them, and takes the score of the strongest when that beats its own. */
function inheritThroughLinks(entry: RankedDoc, scored: ScoredLink[] | undefined, evidence: Evidence, query: QueryAnalysis): RankedDoc {
  if (!scored) return entry;
  // The strongest link (the first of equals) is the page's via.
  const strongest = scored.reduce((best, link) => (link.score > best.score ? link : best));
  const inherited = strongest.score;
  const link = ({ doc, passage, entity, near }: Link): Link => ({ doc, passage, entity, near });
  const via = link(strongest);
  const links = scored.map(link);
  // A page that ranks well on its own keeps its score and passages, but still records the link
  // that reaches it: the brief follows the chain from the page that named it.
  if (inherited <= entry.score) return { ...entry, via, links };
  // The hop target's own best passages are those about what the question asks (focus terms).
  const asked = query.focusTerms.length > 0 ? query.focusTerms : query.terms;
  const focus = weightedTerms(asked, [], relationTerms(asked), 0.8);
  const focusScores = evidence.score(focus).filter((item) => item.passage.doc === entry.doc.index);
  const best = focusScores.sort((a, b) => b.score - a.score || a.passage.position - b.passage.position);
  return { doc: entry.doc, score: inherited + (best[0]?.score ?? 0) * 0.25, best, via, links };
}

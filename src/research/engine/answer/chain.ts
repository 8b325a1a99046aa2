import type { Evidence, EvidenceDoc, Passage } from "../evidence";
import { namesPerson, titleNames, titleRefersTo } from "../evidence";
import { CONTAINER_ATTRIBUTES, type ChainRelation, type HopChain, isLocationRelation, isPlaceRelation, type LocationRelation } from "../question";
import { DEMONYM_COUNTRY, words } from "../language";
import { PLACE_ATTRIBUTES, placeAsWritten, statedAttribute } from "./facts";
import { COUNTRIES, isUsState } from "./places";
import { relatedNames } from "./relations";

/**
 * Follows a question's hop chain through the pages read: the anchor's page, the sentence on it
 * that names the related entity ("directed by Guido Brignone"), that entity's own page, and the
 * sentence on it that states what is asked. Each hop rests on one sentence, so the answer it
 * reaches says exactly where every step was read.
 */

export interface ChainStep {
  /** The entity this step reached (the anchor for the first). */
  entity: string;
  /** Its page, when one was read. */
  doc: EvidenceDoc | null;
  /** The sentence that named it (none for the anchor). */
  passage: Passage | null;
  /** More than one entity matched the relation here ("directed by A and B"). */
  ambiguous: boolean;
}

export interface ChainResolution {
  steps: ChainStep[];
  /** The answer and the sentence that states it, when the chain closed. */
  answer: { text: string; passage: Passage; lead: boolean } | null;
  /** The entity whose page is needed next (the next hop to search), when the chain is still open. */
  missing: string | null;
}

/** The countries DEMONYM_COUNTRY names: a country's own name before a person's ("New Zealand") says where, not who they are. */
const COUNTRY_NAMES = new Set(Object.values(DEMONYM_COUNTRY));

/** Sentences of a page looked at for a fact: the lead says most, but "He died in ..." may come later. */
const SENTENCES_SCANNED = 40;

/** The page about an entity: its title names it; failing that, a page whose title the entity refers to (a surname). */
export function pageAbout(evidence: Evidence, entity: string, except: readonly EvidenceDoc[] = []): EvidenceDoc | null {
  const key = words(entity).join(" ");
  const docs = evidence.docs.filter((doc) => !except.includes(doc));
  return (
    docs.find((doc) => titleNames(doc.title, entity)) ??
    docs.find((doc) => words(doc.title).join(" ") === key) ??
    docs.find((doc) => titleRefersTo(doc.title, entity)) ??
    pageOfShortForm(docs, entity)
  );
}

/**
 * A question may name a work more fully than its page's title does: with its year ("Vertigo
 * (1958)" for the page "Vertigo (film)") or its subtitle ("Frankenstein; or, The Modern
 * Prometheus" for "Frankenstein"). The page named by the short form, and of several (the film,
 * the song, the condition), the one whose title or opening says the qualifier (1958).
 */
function pageOfShortForm(docs: readonly EvidenceDoc[], entity: string): EvidenceDoc | null {
  const qualified = /^(.+?)\s*\(([^)]+)\)$/.exec(entity);
  const subtitled = /^(.+?)(?:;\s*or,?\s|:\s)/i.exec(entity);
  const name = qualified?.[1] ?? subtitled?.[1];
  if (!name || words(name).length === 0) return null;
  const named = docs.filter((doc) => titleNames(doc.title, name));
  if (named.length <= 1 || !qualified) return named[0] ?? null;
  const qualifier = words(qualified[2]!);
  const says = (doc: EvidenceDoc) => {
    const opening = new Set(words([doc.title, ...doc.passages.slice(0, 3).map((passage) => passage.text)].join(" ")));
    return qualifier.every((word) => opening.has(word));
  };
  return named.find(says) ?? null;
}

/**
 * A sentence of a page speaks of the page's subject when it is the lead, opens with a pronoun,
 * or names the subject (any word of the title's name): "Birn was born in Helsinki" on the page of
 * a film's director speaks of an actress, not of the director.
 */
function aboutSubject(doc: EvidenceDoc, passage: Passage): boolean {
  if (passage.position === 0) return true;
  // A pronoun, or a participle opening the sentence ("Born in Wimborne, Dorset in 1886, he began ..."), speaks of the subject.
  if (/^(?:He|She|They|His|Her|Their|Born|Died)\b/.test(passage.text)) return true;
  const name = words(doc.title.replace(/\s*\([^)]*\)\s*$/, "")).filter((word) => word.length > 2);
  const said = new Set(words(passage.text.split(/\b(?:born|died|was|is|married|won|received)\b/i)[0] ?? ""));
  return name.some((word) => said.has(word));
}

function relatedFrom(doc: EvidenceDoc, relation: ChainRelation): { names: string[]; passage: Passage } | null {
  if (isPlaceRelation(relation)) return placeFrom(doc, relation);
  if (isLocationRelation(relation)) return locationFrom(doc, relation);
  for (const passage of doc.passages.slice(0, SENTENCES_SCANNED)) {
    const names = relatedNames(passage.text, relation).filter((name) => !titleNames(doc.title, name));
    if (names.length > 0) return { names, passage };
  }
  return null;
}

/**
 * The place a person's page says they were born or died in, as the sentence writes it
 * ("Wheaton, Illinois"): the one name of a place, whose page is looked up by the whole form first.
 */
function placeFrom(doc: EvidenceDoc, relation: "birth_place" | "death_place"): { names: string[]; passage: Passage } | null {
  for (const passage of doc.passages.slice(0, SENTENCES_SCANNED)) {
    if (!aboutSubject(doc, passage)) continue;
    const stated = statedAttribute(passage.text, relation);
    if (stated) return { names: [placeAsWritten(passage.text, stated.value)], passage };
  }
  return null;
}

/** The container a location hop asks for, as the lead states it; `in_place` is the place a lead puts its subject in ("located in Tulsa, Oklahoma"). */
const LOCATION_ATTRIBUTE: Record<Exclude<LocationRelation, "in_place">, HopChain["attribute"]> = {
  in_country: "country",
  in_state: "state",
  in_county: "county",
};
const PLACE_IN =
  /\b(?:in|near)\s+((?:the\s+)?\p{Lu}[\p{L}'’.-]*(?:\s+(?:\p{Lu}[\p{L}'’.-]*|de|del|do|da|upon|on))*(?:,\s+\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*)*)?)/gu;

/**
 * The place that contains a thing, read in its page's lead (two sentences): the country, state or
 * county by the patterns of answer/facts.ts; a city or region as the first place the lead puts it
 * in that is neither the thing itself nor a country ("a museum located in Tulsa, Oklahoma").
 */
function locationFrom(doc: EvidenceDoc, relation: LocationRelation): { names: string[]; passage: Passage } | null {
  const self = words(doc.title.replace(/\s*\([^)]*\)\s*$/, "").split(",")[0]!).join(" ");
  for (const passage of doc.passages.slice(0, CONTAINER_SENTENCES)) {
    if (relation !== "in_place") {
      const stated = statedAttribute(passage.text, LOCATION_ATTRIBUTE[relation]);
      if (stated && words(stated.value).join(" ") !== self) return { names: [stated.value], passage };
      continue;
    }
    for (const match of passage.text.matchAll(PLACE_IN)) {
      // A sentence's full stop is not the place's ("formed in 1990 in Seattle, Washington."); an abbreviation's is ("U.S.").
      const place = match[1]!.replace(/^the\s+/i, "").replace(/(?<=\p{Ll}{2})\.$/u, "");
      const key = words(place).join(" ");
      if (key === self || self.includes(key) || COUNTRIES.includes(place.split(",")[0]!.trim())) continue;
      return { names: [place], passage };
    }
  }
  return null;
}

/** A place's page by the name a sentence wrote it with, whole ("Wheaton, Illinois") or by the place alone ("Wheaton"). */
function placePage(evidence: Evidence, written: string, except: readonly EvidenceDoc[], said: string): EvidenceDoc | null {
  const page = pageAbout(evidence, written, except) ?? pageAbout(evidence, written.split(",")[0]!.trim(), except);
  // A page may be another place of that name ("Bamberg, South Carolina" for a German historian
  // born in Bamberg): the qualifier of its title must be said where the place was read.
  const qualifier = page && /^[^,(]+(?:,\s*([^(]+)|\s*\(([^)]+)\))$/.exec(page.title);
  if (!qualifier) return page;
  const named = words(qualifier[1] ?? qualifier[2] ?? "").join(" ");
  return ` ${words(said).join(" ")} `.includes(` ${named} `) ? page : null;
}

/**
 * The state or country a place's written name carries after its comma ("Lisle, Vermont": Vermont;
 * its country, the United States), or is ("died in Kansas": the state is Kansas).
 */
function writtenContainer(written: string, attribute: HopChain["attribute"]): string | null {
  if ((attribute === "state" && isUsState(written)) || (attribute === "country" && COUNTRIES.includes(written.trim()))) return written.trim();
  const comma = written.indexOf(",");
  if (comma < 0 || !CONTAINER_ATTRIBUTES.has(attribute)) return null;
  return statedAttribute(written.slice(comma), attribute)?.value ?? null;
}

/** Sentences of a place's page that say where it is: its lead. Later ones name other places ("it borders Cook County"). */
const CONTAINER_SENTENCES = 2;

/** The container of a place, read in its page's lead, never the place itself ("Knox County" on the page of Knox County). */
function containerOf(doc: EvidenceDoc, attribute: HopChain["attribute"]): { text: string; passage: Passage } | null {
  const self = words(doc.title.replace(/\s*\([^)]*\)\s*$/, "").split(",")[0]!).join(" ");
  for (const passage of doc.passages.slice(0, CONTAINER_SENTENCES)) {
    const stated = statedAttribute(passage.text, attribute);
    if (stated && words(stated.value).join(" ") !== self) return { text: stated.value, passage };
  }
  return null;
}

export function resolveChain(chain: HopChain, evidence: Evidence): ChainResolution {
  const anchorDoc = pageAbout(evidence, chain.anchor);
  const steps: ChainStep[] = [{ entity: chain.anchor, doc: anchorDoc, passage: null, ambiguous: false }];
  if (!anchorDoc) return { steps, answer: null, missing: chain.anchor };
  let current = anchorDoc;
  // A container read off the place's written name ("died in Topeka, Kansas"): its relation is done.
  let containerRead = false;
  for (const [index, relation] of chain.relations.entries()) {
    if (containerRead) {
      containerRead = false;
      continue;
    }
    const related = relatedFrom(current, relation);
    if (!related) return { steps, answer: null, missing: null };
    const last = index === chain.relations.length - 1;
    // Of several names ("directed by A and B"), the first whose page was read.
    // A page already on the chain is not the next hop ("son of Henry Lascelles, 4th Earl" is not the 5th Earl's own page).
    const visited = steps.flatMap((step) => (step.doc ? [step.doc] : []));
    const toPlace = isPlaceRelation(relation) || isLocationRelation(relation);
    const lookup = (name: string) => (toPlace ? placePage(evidence, name, visited, `${name} ${related.passage.text}`) : pageAbout(evidence, name, visited));
    const withPage = related.names.map((name) => ({ name, doc: lookup(name) })).find((candidate) => candidate.doc !== null);
    const entity = withPage?.name ?? related.names[0]!;
    const doc = withPage?.doc ?? null;
    steps.push({ entity, doc, passage: related.passage, ambiguous: related.names.length > 1 });
    if (last && chain.attribute === "identity") return { steps, answer: { text: entity, passage: related.passage, lead: true }, missing: null };
    // "a play by the Norwegian playwright Henrik Ibsen": the sentence that names the last entity may say its nationality.
    const described = last && chain.attribute === "nationality" ? nationalityBefore(related.passage.text, entity) : null;
    const byDescription = described ? { text: described, passage: related.passage, lead: true } : null;
    if (!doc) {
      // The container a sentence wrote beside the place ("born in Wheaton, Illinois") answers a state or a country without its page.
      const written = last && chain.attribute !== "county" ? writtenContainer(entity, chain.attribute) : null;
      if (written) return { steps, answer: { text: written, passage: related.passage, lead: true }, missing: null };
      // So it is the next hop when that asks the state or country of the place ("the state where he died").
      const next = chain.relations[index + 1];
      const container = next === "in_state" || next === "in_country" ? writtenContainer(entity, LOCATION_ATTRIBUTE[next]) : null;
      if (!container) return { steps, answer: byDescription, missing: byDescription ? null : entity };
      const containerDoc = placePage(evidence, container, visited, container);
      steps.push({ entity: container, doc: containerDoc, passage: related.passage, ambiguous: false });
      if (index + 1 === chain.relations.length - 1 && chain.attribute === "identity") {
        return { steps, answer: { text: container, passage: related.passage, lead: true }, missing: null };
      }
      if (!containerDoc) return { steps, answer: null, missing: container };
      current = containerDoc;
      containerRead = true;
      continue;
    }
    current = doc;
    if (byDescription) return { steps, answer: statedOnPage(current, chain.attribute) ?? byDescription, missing: null };
  }
  if (CONTAINER_ATTRIBUTES.has(chain.attribute)) {
    const container = containerOf(current, chain.attribute);
    return { steps, answer: container ? { ...container, lead: true } : null, missing: null };
  }
  return { steps, answer: statedOnPage(current, chain.attribute), missing: null };
}

/** The asked attribute as the page of the chain's last entity states it of its subject. */
function statedOnPage(doc: EvidenceDoc, attribute: HopChain["attribute"]): ChainResolution["answer"] {
  for (const passage of doc.passages.slice(0, SENTENCES_SCANNED)) {
    if (!aboutSubject(doc, passage)) continue;
    const stated = statedAttribute(passage.text, attribute);
    if (!stated) continue;
    const text = PLACE_ATTRIBUTES.has(attribute) ? placeAsWritten(passage.text, stated.value) : stated.value;
    return { text, passage, lead: passage.position < 3 };
  }
  return null;
}

/**
 * A demonym describing a name right before it, with at most three lower-case words between ("the
 * Norwegian playwright Henrik Ibsen": Norwegian). A hyphenated one says where the person was born
 * or comes from ("Norwegian-born"), not their nationality, and is not read.
 */
function nationalityBefore(sentence: string, name: string): string | null {
  const at = sentence.indexOf(name);
  if (at < 0) return null;
  const described = /(?:^|[\s(])(\p{Lu}\p{L}+(?: \p{Lu}\p{L}+)?)((?: [a-z][\p{L}]*){0,3}) $/u.exec(sentence.slice(0, at));
  if (!described) return null;
  const demonym = described[1]!;
  return DEMONYM_COUNTRY[demonym.toLowerCase()] !== undefined && !COUNTRY_NAMES.has(demonym.toLowerCase()) ? demonym : null;
}

/**
 * Does a span found by looser means answer an earlier hop of the chain than the one asked? It
 * names an entity the chain passed through ("Mary Shelley" for her mother) or whose attribute is
 * asked ("Carly Elisabeth Simon" for her nationality), or its sentence is on
 * the page of an entity before the one whose attribute is asked (Mary Shelley's birth date, read
 * on her page, for her mother's; Hitchcock's birthplace for his wife's). The attribute of the
 * chain's last entity is on that entity's page; an identity is named on the page before it.
 */
export function onEarlierHop(chain: HopChain, steps: readonly ChainStep[], span: string, passage: Passage): boolean {
  const asked = chain.relations.length - (chain.attribute === "identity" ? 1 : 0);
  const key = words(span).join(" ");
  // The entity of a step, by any form of its name ("Carly Elisabeth Simon" for the performer Carly
  // Simon); the last step's too when an attribute of it is asked (the performer is not her nationality).
  const names = (entity: string) => words(entity).join(" ") === key || (words(entity).length > 1 && namesPerson(span, entity));
  const passed = chain.relations.length + (chain.attribute === "identity" ? 0 : 1);
  if (steps.some((step, index) => index < passed && names(step.entity))) return true;
  return steps.some((step, index) => index < asked && step.doc !== null && step.doc.index === passage.doc);
}

import { terms, withoutHeading, withRelations } from "../../language";
import { bestSupport } from "./best-support";
import type { Found, Support } from "./basis";
import type { BriefStatement, CitedPassage, Confidence, TypedEvidence } from "./evidence";
import { type Field, isAnswerField, isDomainField, isItem, isQuoteField, isStatementList, isTitleField, isUrlField } from "./field";
import { meetsBounds } from "./schema";
import { datesIn, lifeDateIn, lifeEventOf } from "./values";
import { actDateCandidates, answerCandidate, isNameField, isPersonField, speakerCandidates, supportedName } from "./attribution";

/**
 * Strings of the typed output: the brief's own sentences (its answer for an answer field, the
 * statements that speak of what a field names for the others), the cited sources' urls, titles
 * and domains, and dates a passage states in full. A model's string is kept when a cited
 * passage (or a statement of the brief) holds most of its words.
 */

/** A model's sentence is supported by a passage holding this share of its content words (as the brief's own sentences are). */
const SUPPORT = 0.6;

const supportOf = (item: CitedPassage, confidence: Confidence): Support => ({ source: item.source, passage: item.passage, confidence });

/** The candidates of a string field, best first. */
export function stringCandidates(field: Field, evidence: TypedEvidence): Found[] {
  const found = (() => {
    if (field.node.format === "date" || field.node.format === "date-time") return [...actDates(field, evidence), ...dates(field, evidence)];
    if (isUrlField(field)) return fromSources(evidence, (source) => source.url);
    if (isTitleField(field)) return fromSources(evidence, (source) => source.title);
    if (isDomainField(field)) return fromSources(evidence, (source) => source.domain);
    // A name field holds a name, never a sentence: "president" is who, not a sentence holding "President".
    if (isNameField(field) && !isAnswerField(field) && !isStatementList(field)) return names(field, evidence);
    if (isQuoteField(field)) return quotes(evidence);
    const sentence = isAnswerField(field) || field.terms.length === 0;
    // The items of a list of findings, or of a list of answers, are the brief's statements.
    if (isStatementList(field) || (sentence && isItem(field))) return statements(evidence);
    if (sentence) return answers(evidence);
    return aboutField(field, evidence);
  })();
  return found.map((entry) => fitted(field, entry)).filter((entry): entry is Found => entry !== null);
}

/** A sentence longer than maxLength is cut at a word (still a quote of its passage); one the schema cannot take is dropped, never padded. */
function fitted(field: Field, entry: Found): Found | null {
  let value = entry.value as string;
  const max = field.node.maxLength;
  if (typeof max === "number" && [...value].length > max && entry.support.length > 0 && !isUrlField(field)) {
    const cut = [...value].slice(0, max).join("");
    value = cut.length < value.length && /\s/.test(cut) ? cut.replace(/\s+\S*$/, "") : cut;
  }
  return meetsBounds(field.node, value) ? { value, support: entry.support } : null;
}

function fromStatement(statement: BriefStatement, confidence: Confidence, text = statement.text): Found {
  return { value: text, support: statement.support.map((item) => supportOf(item, confidence)) };
}

/**
 * The cited sources' own url, title or domain, through the passage the brief cites from each. In
 * an item that describes a source it is that source's own (`high`); elsewhere ("title" of what?)
 * the field may ask for something else, so `medium`.
 */
function fromSources(evidence: TypedEvidence, pick: (source: TypedEvidence["sources"][number]["source"]) => string): Found[] {
  const confidence: Confidence = evidence.view === "source" ? "high" : "medium";
  return evidence.sources.flatMap(({ index, source }) => {
    const item =
      evidence.statements.flatMap((statement) => statement.support).find((entry) => entry.source === index) ??
      evidence.passages.find((entry) => entry.source === index);
    return item ? [{ value: pick(source), support: [supportOf(item, confidence)] }] : [];
  });
}

/** The brief's statements, each with the passages it rests on: an extract is `high`, the engine's own wording `medium`. */
function statements(evidence: TypedEvidence): Found[] {
  return evidence.statements
    .filter((statement) => statement.support.length > 0)
    .map((statement) => fromStatement(statement, statement.verbatim ? "high" : "medium"));
}

/**
 * A quote field holds a source's words as they stand, never the engine's attribution around them
 * ('William J Clinton (State of the Union address, 1996): "…"; Barack Obama …'): the passages the
 * brief's opening rests on (`medium`), then those of its other statements (`low`), each without a
 * heading run into it.
 */
function quotes(evidence: TypedEvidence): Found[] {
  const opening = new Set(evidence.opening?.statement.support.map((item) => item.passage) ?? []);
  const items = [...evidence.statements.flatMap((statement) => statement.support)].sort(
    (a, b) => Number(opening.has(b.passage)) - Number(opening.has(a.passage)),
  );
  const seen = new Set<string>();
  return items.flatMap((item) => {
    const text = withoutHeading(item.passage.text).trim();
    if (!text || seen.has(text)) return [];
    seen.add(text);
    return [{ value: text, support: [supportOf(item, opening.has(item.passage) ? "medium" : "low")] }];
  });
}

/**
 * The brief's answer: its opening sentence. An opening that first says the sources do not answer
 * is given whole and `low`; a sentence the engine wrote from the evidence (a yes/no with the
 * deciding facts, an answer in a frame, "Answer: X." without its label) is `medium`; a sentence quoted as the closest evidence is
 * `medium` when it holds the question's key terms, else `low`. Within one source or one finding
 * (the items of a list), the answer is what that source or finding says.
 */
function answers(evidence: TypedEvidence): Found[] {
  if (evidence.view !== "brief") return statements(evidence);
  const opening = evidence.opening;
  if (!opening || opening.statement.support.length === 0) return [];
  if (opening.hedged) return [fromStatement(opening.statement, "low", opening.text)];
  // "Answer: Lyon." is the brief's label for a plain answer; the field holds the answer itself.
  if (!opening.statement.verbatim) return [fromStatement(opening.statement, "medium", opening.statement.text.replace(/^Answer:\s*/, "").replace(/\.$/, ""))];
  const keys = evidence.keyTerms;
  const held = new Set(opening.statement.support.flatMap((item) => item.passage.terms.filter((term) => keys.has(term)))).size;
  return [fromStatement(opening.statement, held >= Math.min(2, keys.size) ? "medium" : "low")];
}

/**
 * The statements of the brief that speak of what the field names ("position", "tariff policy"):
 * each must hold a word of the field's name or description (or a word pages use for the same
 * relation). None: the field has no value. A sentence in a field that names a thing ("presidents",
 * "capital") fits it loosely however well it matches, so it is never `high`: `medium` when it holds
 * every word of the field and two of the question's, else `low`.
 */
function aboutField(field: Field, evidence: TypedEvidence): Found[] {
  const wanted = withRelations(field.terms);
  const keys = [...evidence.keyTerms].filter((term) => !wanted.has(term));
  return evidence.statements
    .filter((statement) => statement.support.length > 0)
    .map((statement, order) => {
      const own = new Set(terms(statement.text));
      const held = field.terms.filter((term) => own.has(term) || [...withRelations([term])].some((related) => own.has(related))).length;
      const keysHeld = keys.filter((term) => own.has(term)).length;
      return { statement, held, keysHeld, order };
    })
    .filter((entry) => entry.held > 0)
    .sort((a, b) => b.held - a.held || b.keysHeld - a.keysHeld || a.order - b.order)
    .map(({ statement, held, keysHeld }) => fromStatement(statement, held === field.terms.length && keysHeld >= Math.min(2, keys.length) ? "medium" : "low"));
}

/**
 * A name field's values: the engine's short answer when it is a name of the kind the field asks,
 * and for a person, the speakers whose own sentences do what the question asks; each once.
 */
function names(field: Field, evidence: TypedEvidence): Found[] {
  const found = [...answerCandidate(evidence, field), ...(isPersonField(field) ? speakerCandidates(evidence, field) : [])];
  const seen = new Set<string>();
  return found.filter((entry) => {
    const key = String(entry.value).toLowerCase();
    return !seen.has(key) && seen.add(key);
  });
}

/** The date of the page whose sentence is its speaker's act, when the page states its full date (a date field asking when it was done or said). */
function actDates(field: Field, evidence: TypedEvidence): Found[] {
  const format = (iso: string) => (field.node.format === "date-time" ? `${iso}T00:00:00Z` : iso);
  return actDateCandidates(evidence, field).map((entry) => ({ ...entry, value: format(entry.value as string) }));
}

/** Full dates a passage states: birth and death dates from a life-dates parenthesis, else dates in passages about the question. */
function dates(field: Field, evidence: TypedEvidence): Found[] {
  const format = (iso: string) => (field.node.format === "date-time" ? `${iso}T00:00:00Z` : iso);
  const out: Found[] = [];
  const event = lifeEventOf(field.words);
  if (event) {
    for (const item of evidence.passages) {
      const written = lifeDateIn(item.passage.text, event);
      const date = written && datesIn(written)[0];
      if (date) out.push({ value: format(date.iso), support: [supportOf(item, item.inBrief ? "high" : "medium")] });
    }
  }
  const own = withRelations(field.terms);
  for (const item of evidence.relevant(own)) {
    for (const date of datesIn(item.passage.text)) out.push({ value: format(date.iso), support: [supportOf(item, item.inBrief ? "medium" : "low")] });
  }
  const seen = new Set<unknown>();
  return out.filter((entry) => !seen.has(entry.value) && seen.add(entry.value));
}

/** The candidate holding exactly this string (url, title, domain, date), or the passage that holds a model's sentence. */
export function supportedString(field: Field, evidence: TypedEvidence, value: string): Found | null {
  if (field.node.format === "date" || field.node.format === "date-time" || isUrlField(field) || isTitleField(field) || isDomainField(field)) {
    // A date-time is the day a passage states (the time is the format's, not a claim).
    const key = (text: string) => (field.node.format === "date-time" ? text.slice(0, 10) : text.trim().replace(/\/$/, "").toLowerCase());
    return stringCandidates(field, evidence).find((entry) => key(String(entry.value)) === key(value)) ?? null;
  }
  if (isNameField(field) && !isAnswerField(field) && !isStatementList(field)) return supportedName(field, evidence, value, names(field, evidence));
  const yesNo = /^\s*(yes|no)\s*[.!]?\s*$/i.exec(value);
  if (yesNo) {
    const said = evidence.yesNo();
    return said && said.value === (yesNo[1]!.toLowerCase() === "yes") ? fromStatement(said.statement, "medium", value) : null;
  }
  return textSupport(evidence, value);
}

/**
 * A sentence is supported by the cited passage holding it (word for word: high) or most of its
 * content words; else by a statement of the brief holding most of them (the model's answer
 * restating the brief), through that statement's passages.
 */
function textSupport(evidence: TypedEvidence, value: string): Found | null {
  const needle = value.trim().toLowerCase();
  const verbatim = needle.length >= 3 ? evidence.passages.find((item) => item.passage.text.toLowerCase().includes(needle)) : undefined;
  if (verbatim) return { value, support: [supportOf(verbatim, "high")] };
  const wanted = terms(value);
  if (wanted.length === 0) return null;
  const match = bestSupport(
    wanted,
    evidence.passages.map((item) => item.passage),
  );
  if (match && match.support >= SUPPORT) {
    const item = evidence.passages.find((entry) => entry.passage === match.passage)!;
    return { value, support: [supportOf(item, match.support >= 0.9 ? "high" : match.support >= 0.75 ? "medium" : "low")] };
  }
  for (const statement of evidence.statements) {
    const own = new Set(terms(statement.text));
    const share = wanted.filter((term) => own.has(term)).length / wanted.length;
    if (share >= SUPPORT && statement.support.length > 0) return fromStatement(statement, "low", value);
  }
  return null;
}

/** The options of a string enum that the brief's statements or the passages about the question name, best first. */
export function enumCandidates(_field: Field, evidence: TypedEvidence, options: unknown[]): Found[] {
  const out: Found[] = [];
  for (const option of options) {
    if (typeof option !== "string") continue;
    const yesNo = /^(yes|no)$/i.exec(option.trim());
    if (yesNo) {
      const said = evidence.yesNo();
      if (said && said.value === (yesNo[1]!.toLowerCase() === "yes")) out.push(fromStatement(said.statement, "medium", option));
      continue;
    }
    const wanted = terms(option);
    if (wanted.length === 0) continue;
    const holds = (item: CitedPassage) => wanted.every((term) => item.passage.terms.includes(term));
    const statement = evidence.statements.find((entry) => entry.support.some(holds));
    const item = statement ? statement.support.find(holds)! : evidence.relevant().find(holds);
    if (item) out.push({ value: option, support: [supportOf(item, statement ? "medium" : "low")] });
  }
  // Options a statement of the brief names come first, then those only another passage names.
  const rank = (entry: Found) => (entry.support[0]!.confidence === "medium" ? 0 : 1);
  return out.sort((a, b) => rank(a) - rank(b));
}

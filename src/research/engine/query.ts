import { QUESTION_WORDS, STOPWORDS, stem, terms, unique, words } from "./text";

/**
 * What a question asks about: its content terms, quoted phrases, capitalised entities, and
 * its shape (a yes/no comparison, a choice between two named options, or an open question),
 * which decides how the brief opens.
 */
export interface QueryAnalysis {
  question: string;
  /** Stemmed content terms, without stopwords and question words. */
  terms: string[];
  phrases: string[];
  entities: string[];
  kind: "yes_no" | "choice" | "open";
  /** For "choice": the two named options ("Who is older, A or B?"). */
  options: string[];
  /** Terms that say what is asked about the entities ("nationality", "opera composers"). */
  focusTerms: string[];
}

/** Words that may sit inside a capitalised name ("Kiss and Tell", "Guns N' Roses", "Bank of America"). */
const NAME_JOINERS = new Set(["of", "and", "the", "de", "la", "le", "du", "von", "van", "der", "da", "del", "&", "n", "y", "for", "on", "in"]);
const YES_NO_START = /^(is|are|was|were|do|does|did|has|have|had|can|could|will|would|should)\b/i;

/** Capitalised word sequences, e.g. "Laleli Mosque", "Kiss and Tell", "Robert Erskine Childers". */
export function capitalisedEntities(text: string): string[] {
  const matches = [...text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’.\-/]*|&/gu)];
  const found: string[] = [];
  let current: string[] = [];
  let sentenceStart = true;
  const flush = () => {
    while (current.length > 0 && NAME_JOINERS.has(current[current.length - 1]!.toLowerCase())) current.pop();
    if (current.length > 0) found.push(...splitConjoined(current.join(" ").replace(/[.,]+$/, "")));
    current = [];
  };
  for (let index = 0; index < matches.length; index++) {
    const match = matches[index]!;
    const raw = match[0];
    const token = raw.replace(/[.,;:!?]+$/, "");
    const lower = token.toLowerCase();
    const capitalised = /^[\p{Lu}\p{N}]/u.test(token);
    // A capitalised question word or stopword opening the question is not a name.
    const isOpener = sentenceStart && (QUESTION_WORDS.has(lower) || STOPWORDS.has(lower) || OPENERS.has(lower));
    const next = matches[index + 1]?.[0] ?? "";
    if (capitalised && !isOpener && !(current.length === 0 && STOPWORDS.has(lower) && lower !== "the")) {
      current.push(token);
    } else if (current.length > 0 && NAME_JOINERS.has(lower) && /^[\p{Lu}\p{N}]/u.test(next)) {
      current.push(token);
    } else {
      flush();
    }
    sentenceStart = false;
    // Punctuation between two words ends a name ("Lawrence, Kansas" is two places).
    const gap = text.slice(match.index + raw.length, matches[index + 1]?.index ?? text.length);
    const initial = /^\p{Lu}\.$/u.test(raw);
    if (/[,;:()\[\]]/.test(gap) || (/[.!?]$/.test(raw) && !initial)) flush();
    if (/[.!?]$/.test(raw) && !initial) sentenceStart = true;
  }
  flush();
  return unique(found.map((entity) => entity.replace(/^(The|A|An) /, "")).filter((entity) => entity.length > 1 && !/^\d{1,2}$/.test(entity)));
}

/** Openers that are capitalised only because they start the question. */
const OPENERS = new Set(["aside", "besides", "apart", "according", "in", "name", "list"]);

/**
 * "Scott Derrickson and Ed Wood" names two people; "Kiss and Tell" is one title. Split on
 * "and" when both sides are names of two or more words.
 */
function splitConjoined(name: string): string[] {
  const parts = name.split(/ (?:and|&) /);
  if (parts.length === 2 && parts.every((part) => part.split(" ").length >= 2)) return parts;
  return [name];
}

export function quotedPhrases(text: string): string[] {
  return unique([...text.matchAll(/["“]([^"”]{2,120})["”]/g)].map((match) => match[1]!.trim()).filter(Boolean));
}

function contentTerms(text: string): string[] {
  return unique(terms(text).filter((term) => !QUESTION_WORDS.has(term)));
}

export function analyzeQuestion(question: string): QueryAnalysis {
  const phrases = quotedPhrases(question);
  const entities = unique([...phrases, ...capitalisedEntities(question.replace(/["“”]/g, " , "))]).filter(
    // A phrase already inside a longer entity adds nothing.
    (entity, _, all) => !all.some((other) => other !== entity && other.includes(entity) && !phrases.includes(entity)),
  );
  const allTerms = contentTerms(question);
  const entityTerms = new Set(entities.flatMap((entity) => words(entity).map(stem)));
  const focusTerms = allTerms.filter((term) => !entityTerms.has(term));

  let kind: QueryAnalysis["kind"] = "open";
  let options: string[] = [];
  const choice = /,\s*([^,?]+?)\s+or\s+([^,?]+?)\s*\??$/i.exec(question.trim());
  if (choice && /^(who|which|what)\b/i.test(question.trim())) {
    kind = "choice";
    options = [choice[1]!.trim(), choice[2]!.trim()];
  } else if (YES_NO_START.test(question.trim())) {
    kind = "yes_no";
  }
  return { question, terms: allTerms, phrases, entities, kind, options, focusTerms };
}

import { terms } from "../../language";
import { readNode, type SchemaNode, typeOf } from "./schema";

/**
 * One field of the caller's schema as the resolver reads it: where it is, its schema node, and
 * what its name and description say it holds. The words decide which passages may support it.
 */
export interface Field {
  /** "year", "author.born", "findings[2]"; "" for the schema's root. */
  path: string;
  /** The property name ("" at the root; an array's name for its items). */
  name: string;
  node: SchemaNode;
  root: SchemaNode;
  /** Name, title and description, as words ("president_count" -> "president count ..."). */
  words: string;
  /** The content terms of those words, without words that only say "a number of" or "a list". */
  terms: string[];
  /** The content terms of the name alone (a count's noun: "president_count" -> president). */
  nameTerms: string[];
}

/** Words of a field's name or description that say what shape the value has, not what it is about. */
const SHAPE_WORDS = new Set(
  terms("count counts number numbers num total amount value values many much list field item items data info information text string id entry entries"),
);

const spaced = (name: string) => name.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[_\-.]+/g, " ");

export function fieldOf(root: SchemaNode, raw: unknown, name: string, path: string, context = ""): Field {
  const node = readNode(root, raw);
  const own = [spaced(name), typeof node.title === "string" ? node.title : "", typeof node.description === "string" ? node.description : ""].join(" ");
  const words = `${own} ${context}`.trim();
  return {
    path,
    name,
    node,
    root,
    words,
    terms: [...new Set(terms(words))].filter((term) => !SHAPE_WORDS.has(term)),
    nameTerms: [...new Set(terms(spaced(name)))].filter((term) => !SHAPE_WORDS.has(term)),
  };
}

export const childPath = (path: string, key: string) => (path ? `${path}.${key}` : key);
export const itemPath = (path: string, index: number) => `${path}[${index}]`;
/** How a basis entry and an error name a field. */
export const fieldLabel = (path: string) => path || "(root)";

/** An item of a list ("findings[2]"). */
export const isItem = (field: Field) => field.path.endsWith("]");

/** The brief's answer belongs here: "answer", "summary", "conclusion", or the schema's root. */
export function isAnswerField(field: Field): boolean {
  return field.name === "" || /\b(answer|summary|brief|conclusion|result|response|verdict|overview)\b/i.test(field.words);
}

/** A list of what the brief says: its statements are the items. */
export function isStatementList(field: Field): boolean {
  return /\b(findings?|facts?|points?|highlights?|evidence|quotes?|quotations?|claims?|statements?|takeaways?|details?|notes?|reasons?|arguments?|excerpts?|mentions?)\b/i.test(
    field.words,
  );
}

/** "president_count", "number of speeches", "how many": a count of something the field names. */
export function isCount(field: Field): boolean {
  return /\b(count|counts|number|num|total)\b|^n\s/i.test(spaced(field.name)) || /\b(how many|number of|count of|total number)\b/i.test(field.words);
}

/** What a count counts: the name's own words ("president_count" -> president), else the description's. */
export function countedTerms(field: Field): string[] {
  return field.nameTerms.length > 0 ? field.nameTerms : field.terms;
}

const SOURCE_WORDS = /\b(sources?|speech(es)?|documents?|pages?|articles?|citations?|addresses|messages|results?)\b/i;

/** A count of the sources themselves ("number of speeches that mention it"): only when the field says so. */
export function countsSources(field: Field): boolean {
  return isCount(field) && SOURCE_WORDS.test(field.words);
}

/** A year: "year", "years", "birth_year"; or an integer named after a dated event ("founded", "born"). */
export function isYearField(field: Field): boolean {
  if (/\b(years?|yr)\b/i.test(field.words)) return true;
  return typeOf(field.node) === "integer" && /(^|_)(born|founded|died|established|built|published|released)$/i.test(field.name);
}

/** Words quoted from a source: "quote", "quotation", "excerpt", "sentence" (a field's name, not its description). */
export function isQuoteField(field: Field): boolean {
  return typeOf(field.node) !== "array" && /\b(quotes?|quotations?|quoted|excerpts?|sentences?)\b/i.test(spaced(field.name));
}

export function isUrlField(field: Field): boolean {
  return field.node.format === "uri" || field.node.format === "url" || /\b(urls?|links?|uri|href)\b/i.test(spaced(field.name));
}

export function isTitleField(field: Field): boolean {
  return /\btitles?\b/i.test(spaced(field.name));
}

export function isDomainField(field: Field): boolean {
  return /\b(domains?|site|host|hostname)\b/i.test(spaced(field.name));
}

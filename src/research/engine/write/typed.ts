import { type OutputUnit, type Schema, Validator } from "@cfworker/json-schema";
import { llmCostUsd } from "../../pricing";
import type { ChatMessage, ChatModel } from "../../providers/types";
import type { EvidenceAnalysis } from "../evidence";
import type { Budget } from "../budget";
import type { Synthesis } from "./brief";
import { InvalidSchemaError, TypedOutputError } from "../errors";
import type { QueryAnalysis } from "../question";
import { similarity } from "../evidence";
import { MONTHS, terms } from "../language";
import { typedOutputPrompt, typedRepairPrompt } from "../prompts";

/**
 * Typed output: the brief re-cast into an object that conforms to the caller's JSON Schema.
 * Offline, the schema is filled from the evidence (strings from the best-matching sentences,
 * arrays from the findings, numbers, dates and booleans extracted where present); with a
 * model, the model writes the JSON and gets one repair attempt with the validator's errors.
 * Either way the result is validated with @cfworker/json-schema before it is returned.
 */
export interface CompiledSchema {
  schema: Record<string, unknown>;
  validator: Validator;
}

const TYPES = new Set(["object", "array", "string", "number", "integer", "boolean", "null"]);

/** Structural checks of a schema (the keywords that must hold schemas, arrays or types). */
function schemaProblems(schema: unknown, path: string): string[] {
  if (typeof schema === "boolean") return [];
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return [`${path || "schema"} must be an object or boolean`];
  const node = schema as Record<string, unknown>;
  const problems: string[] = [];
  const type = node.type;
  if (type !== undefined) {
    const list = Array.isArray(type) ? type : [type];
    if (list.length === 0 || list.some((entry) => typeof entry !== "string" || !TYPES.has(entry))) problems.push(`${path}/type is not a JSON Schema type`);
  }
  for (const key of ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]) {
    const value = node[key];
    if (value === undefined) continue;
    if (typeof value !== "object" || value === null || Array.isArray(value)) problems.push(`${path}/${key} must be an object`);
    else for (const [name, child] of Object.entries(value)) problems.push(...schemaProblems(child, `${path}/${key}/${name}`));
  }
  for (const key of ["items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else", "additionalItems", "unevaluatedProperties", "unevaluatedItems"]) {
    if (node[key] === undefined) continue;
    if (key === "items" && Array.isArray(node[key])) (node[key] as unknown[]).forEach((child, index) => problems.push(...schemaProblems(child, `${path}/items/${index}`)));
    else problems.push(...schemaProblems(node[key], `${path}/${key}`));
  }
  for (const key of ["allOf", "anyOf", "oneOf", "prefixItems"]) {
    const value = node[key];
    if (value === undefined) continue;
    if (!Array.isArray(value) || value.length === 0) problems.push(`${path}/${key} must be a non-empty array`);
    else value.forEach((child, index) => problems.push(...schemaProblems(child, `${path}/${key}/${index}`)));
  }
  if (node.required !== undefined && (!Array.isArray(node.required) || node.required.some((entry) => typeof entry !== "string"))) {
    problems.push(`${path}/required must be an array of strings`);
  }
  if (node.enum !== undefined && !Array.isArray(node.enum)) problems.push(`${path}/enum must be an array`);
  for (const key of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]) {
    if (node[key] !== undefined && typeof node[key] !== "number") problems.push(`${path}/${key} must be a number`);
  }
  for (const key of ["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"]) {
    const value = node[key];
    if (value !== undefined && (typeof value !== "number" || !Number.isInteger(value) || value < 0)) problems.push(`${path}/${key} must be a non-negative integer`);
  }
  if (node.pattern !== undefined) {
    try {
      new RegExp(String(node.pattern), "u");
    } catch {
      problems.push(`${path}/pattern is not a valid regular expression`);
    }
  }
  return problems;
}

const PROBES: unknown[] = [null, {}, [], "", 0, true];

/** Checks and compiles response_schema; throws InvalidSchemaError before any research is done. */
export function compileSchema(schema: Record<string, unknown>): CompiledSchema {
  const problems = schemaProblems(schema, "");
  if (problems.length > 0) throw new InvalidSchemaError(`response_schema is not a valid JSON Schema: ${problems.slice(0, 5).join("; ")}`);
  try {
    const validator = new Validator(schema as Schema, "2020-12", false);
    // A $ref cycle that consumes nothing ({"$ref": "#"}) recurses forever on any value: probing
    // one value of each kind finds it here, not when the output is validated.
    for (const probe of PROBES) validator.validate(probe);
    return { schema, validator };
  } catch (error) {
    if (error instanceof RangeError) throw new InvalidSchemaError("response_schema is not a valid JSON Schema: its $ref references form a cycle that never reaches a concrete schema.");
    throw new InvalidSchemaError(`response_schema is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function validationErrors(compiled: CompiledSchema, value: unknown): string[] {
  const result = compiled.validator.validate(value);
  if (result.valid) return [];
  return result.errors
    .filter((error: OutputUnit) => !/^(properties|items|allOf|\$ref)$/.test(error.keyword) || result.errors.length === 1)
    .map((error: OutputUnit) => `${error.instanceLocation}: ${error.error}`)
    .slice(0, 10);
}

export interface TypedContext {
  query: QueryAnalysis;
  analysis: EvidenceAnalysis;
  synthesis: Synthesis;
  llm: ChatModel | null;
  budget: Budget;
  signal?: AbortSignal;
}

export async function typedOutput(compiled: CompiledSchema, context: TypedContext): Promise<unknown> {
  const value = context.llm ? await modelFill(compiled, context) : offlineFill(compiled, context);
  const errors = validationErrors(compiled, value);
  if (errors.length > 0) throw new TypedOutputError(`The typed output does not conform to response_schema: ${errors.join("; ")}`, errors, context.budget.costUsd);
  return value;
}

// ---------- offline: fill the schema from the evidence ----------

function offlineFill(compiled: CompiledSchema, context: TypedContext): unknown {
  return fillSchema(compiled.schema, "", context.synthesis, context.query);
}

function stripCitations(text: string): string {
  return text.replace(/\s*\[\d+\]/g, "").trim();
}

/** The statements of the brief, best match first, for a field described by these words. */
function bestStatements(synthesis: Synthesis, description: string): string[] {
  const wanted = terms(description);
  return synthesis.statements
    .map((statement, index) => ({ text: stripCitations(statement.text), score: similarity(wanted, terms(statement.text)) - index * 1e-4 }))
    .sort((a, b) => b.score - a.score)
    .map((entry) => entry.text);
}

function extractDate(text: string): string | undefined {
  const iso = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(text);
  if (iso) return iso[0];
  const long = new RegExp(`\\b(${MONTHS}) (\\d{1,2}), (\\d{4})\\b`).exec(text) ?? new RegExp(`\\b(\\d{1,2}) (${MONTHS}) (\\d{4})\\b`).exec(text);
  if (long) {
    const [monthName, day, year] = /^\d/.test(long[1]!) ? [long[2]!, long[1]!, long[3]!] : [long[1]!, long[2]!, long[3]!];
    const month = MONTHS.split("|").indexOf(monthName) + 1;
    return `${year}-${String(month).padStart(2, "0")}-${day.padStart(2, "0")}`;
  }
  const year = /\b(1\d{3}|20\d{2})\b/.exec(text);
  return year ? `${year[1]}-01-01` : undefined;
}

/**
 * Birth and death dates as encyclopedias write them: "(April 23, 1928 – February 10, 2014)",
 * "(born 16 July 1966)". Field names mentioning birth or death read these first.
 */
function lifeDate(texts: string[], which: "birth" | "death"): string | undefined {
  for (const text of texts) {
    const born = /\(\s*born\s+([^;)]*?\d{4})/i.exec(text) ?? /\bborn\s+(?:on\s+|in\s+)?((?:[A-Z][a-z]+ \d{1,2}, |\d{1,2} [A-Z][a-z]+ )?\d{4})/.exec(text);
    const span = /\(([^()]*?\d{4})\s*[–—-]\s*([^()]*?\d{4})\)/.exec(text);
    if (which === "birth" && (born || span)) return born ? born[1] : span![1];
    if (which === "death" && span) return span[2];
  }
  return undefined;
}

function lifeEvent(description: string): "birth" | "death" | null {
  if (/\b(born|birth)/i.test(description)) return "birth";
  if (/\b(died|death|dead)\b/i.test(description)) return "death";
  return null;
}

function extractNumber(text: string): number | undefined {
  const match = /(?<![\w.])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.])-?\d+(?:\.\d+)?/.exec(text);
  return match ? Number(match[0].replace(/,/g, "")) : undefined;
}

function pickType(node: Record<string, unknown>): string | undefined {
  const type = node.type;
  if (Array.isArray(type)) return (type.find((entry) => entry !== "null") as string | undefined) ?? "null";
  if (typeof type === "string") return type;
  if (node.properties) return "object";
  if (node.items) return "array";
  return undefined;
}

function clampString(text: string, node: Record<string, unknown>): string {
  let out = text;
  if (typeof node.maxLength === "number" && out.length > node.maxLength) out = out.slice(0, node.maxLength);
  if (typeof node.minLength === "number" && out.length < node.minLength) out = out.padEnd(node.minLength, ".");
  return out;
}

/** Fills one schema node; `name` is the property name (its words say what belongs there). */
export function fillSchema(schemaNode: unknown, name: string, synthesis: Synthesis, query: QueryAnalysis): unknown {
  if (typeof schemaNode !== "object" || schemaNode === null) return null;
  const node = schemaNode as Record<string, unknown>;
  const description = `${name.replace(/[_-]+/g, " ")} ${typeof node.description === "string" ? node.description : ""} ${typeof node.title === "string" ? node.title : ""}`;
  if ("const" in node) return node.const;
  for (const key of ["anyOf", "oneOf"]) {
    const list = node[key];
    if (Array.isArray(list)) return fillSchema(list.find((entry) => (entry as Record<string, unknown>)?.type !== "null") ?? list[0], name, synthesis, query);
  }
  if (Array.isArray(node.enum) && node.enum.length > 0) return pickEnum(node.enum, synthesis);
  const opening = stripCitations(synthesis.statements[0]?.text ?? synthesis.brief);
  switch (pickType(node)) {
    case "object":
      return fillObject(node, synthesis, query);
    case "array":
      return fillArray(node, name, description, synthesis, query);
    case "string":
      return fillString(node, name, description, opening, synthesis, query);
    case "number":
    case "integer":
      return fillNumber(node, description, synthesis, query);
    case "boolean":
      return fillBoolean(description, opening, synthesis);
    case "null":
      return null;
    default:
      return opening;
  }
}

/** The option the opening and the brief speak of most. */
function pickEnum(options: unknown[], synthesis: Synthesis): unknown {
  const text = `${synthesis.statements[0]?.text ?? ""} ${synthesis.brief}`;
  const scored = options.map((option) => ({ option, score: typeof option === "string" ? similarity(terms(option), terms(text)) : 0 }));
  return scored.sort((a, b) => b.score - a.score)[0]!.option;
}

function fillObject(node: Record<string, unknown>, synthesis: Synthesis, query: QueryAnalysis): Record<string, unknown> {
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(properties)) out[key] = fillSchema(child, key, synthesis, query);
  return out;
}

function fillArray(node: Record<string, unknown>, name: string, description: string, synthesis: Synthesis, query: QueryAnalysis): unknown[] {
  const items = (Array.isArray(node.items) ? node.items[0] : node.items) as Record<string, unknown> | undefined;
  const min = typeof node.minItems === "number" ? node.minItems : 0;
  const max = typeof node.maxItems === "number" ? node.maxItems : 10;
  const itemType = items ? pickType(items) : "string";
  let values: unknown[];
  const itemKeys = Object.keys((items?.properties ?? {}) as object);
  if (itemType === "object" && itemKeys.some((key) => /url|link|title|domain|source/i.test(key))) {
    values = synthesis.sources.map((source) => fillSource(items!, source, synthesis, query));
  } else if (itemType === "object") {
    values = synthesis.statements.map((statement) => fillSchema(items, name, { ...synthesis, statements: [statement] }, query));
  } else if (itemType === "number" || itemType === "integer") {
    values = synthesis.statements.map((statement) => extractNumber(statement.text)).filter((value) => value !== undefined);
  } else if (/\b(urls?|links?|sources?)\b/i.test(description)) {
    values = synthesis.sources.map((source) => source.url);
  } else {
    values = bestStatements(synthesis, `${description} ${query.question}`).map((text) => clampString(text, items ?? {}));
  }
  values = node.uniqueItems ? [...new Set(values.map((value) => JSON.stringify(value)))].map((value) => JSON.parse(value)) : values;
  while (values.length < min && values.length > 0) values.push(values[values.length % Math.max(1, values.length)]);
  return values.slice(0, Math.max(min, Math.min(max, values.length)));
}

function fillString(node: Record<string, unknown>, name: string, description: string, opening: string, synthesis: Synthesis, query: QueryAnalysis): string {
  if (node.format === "date" || node.format === "date-time") {
    const event = lifeEvent(description);
    const life = event ? lifeDate(bestStatements(synthesis, description), event) : undefined;
    const date = (life && extractDate(life)) ?? bestStatements(synthesis, description).map(extractDate).find(Boolean) ?? extractDate(synthesis.brief);
    if (date) return node.format === "date" ? date : `${date}T00:00:00Z`;
  }
  if (node.format === "uri" || /\b(url|link)\b/i.test(description)) return synthesis.sources[0]?.url ?? "";
  if (/\btitle\b/i.test(description)) return clampString(synthesis.sources[0]?.title ?? "", node);
  const wantsAnswer = /\b(answer|summary|brief|conclusion|result|response|verdict)\b/i.test(description);
  if (wantsAnswer || !name) return clampString(opening, node);
  return clampString(bestStatements(synthesis, `${description} ${query.question}`)[0] ?? opening, node);
}

function fillNumber(node: Record<string, unknown>, description: string, synthesis: Synthesis, query: QueryAnalysis): number {
  const event = lifeEvent(description);
  const life = event && /\byear\b/i.test(description) ? lifeDate(bestStatements(synthesis, description), event) : undefined;
  const lifeYear = life ? Number(/(\d{4})$/.exec(life)?.[1]) : undefined;
  const found = lifeYear ?? bestStatements(synthesis, `${description} ${query.question}`).map(extractNumber).find((value) => value !== undefined);
  let value = found ?? (/\b(count|number|sources)\b/i.test(description) ? synthesis.sources.length : 0);
  if (pickType(node) === "integer") value = Math.round(value);
  if (typeof node.minimum === "number") value = Math.max(node.minimum, value);
  if (typeof node.maximum === "number") value = Math.min(node.maximum, value);
  return value;
}

function fillBoolean(description: string, opening: string, synthesis: Synthesis): boolean {
  if (/^yes\b/i.test(opening)) return true;
  if (/^no\b/i.test(opening)) return false;
  const wanted = terms(description);
  return synthesis.statements.some((statement) => terms(statement.text).some((term) => wanted.includes(term)));
}

function fillSource(items: Record<string, unknown>, source: Synthesis["sources"][number], synthesis: Synthesis, query: QueryAnalysis): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries((items.properties ?? {}) as Record<string, unknown>)) {
    if (/url|link/i.test(key)) out[key] = source.url;
    else if (/title|name/i.test(key)) out[key] = source.title;
    else if (/domain|site|host/i.test(key)) out[key] = source.domain;
    else if (/summary|snippet|excerpt|description/i.test(key)) out[key] = source.summary ?? "";
    else out[key] = fillSchema(child, key, synthesis, query);
  }
  return out;
}

// ---------- with a model: ask for JSON, validate, one repair ----------

function parseJson(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  const body = (fenced ? fenced[1]! : text).trim();
  const start = body.search(/[[{]/);
  if (start < 0) throw new Error("no JSON value in the answer");
  return JSON.parse(body.slice(start, Math.max(body.lastIndexOf("}"), body.lastIndexOf("]")) + 1));
}

async function modelFill(compiled: CompiledSchema, context: TypedContext): Promise<unknown> {
  const llm = context.llm!;
  const sources = context.synthesis.sources.map((source, index) => `[${index + 1}] ${source.title} <${source.url}>`).join("\n");
  const { system, user: prompt } = typedOutputPrompt(compiled.schema, context.query.question, context.synthesis.brief, sources);
  const messages: ChatMessage[] = [{ role: "user", content: prompt }];
  let errors: string[] = [];
  for (let attempt = 0; attempt < 2; attempt++) {
    // The model is only asked when the envelope can pay for the call (prompt + a full answer);
    // otherwise the first attempt is filled offline and a repair is not attempted.
    const estimate = llmCostUsd(Math.ceil((system.length + messages.reduce((sum, message) => sum + message.content.length, 0)) / 4), 2000);
    if (!context.budget.canAfford(estimate)) {
      if (attempt === 0) return offlineFill(compiled, context);
      break;
    }
    if (attempt === 1) {
      messages.push({ role: "user", content: typedRepairPrompt(errors) });
    }
    const response = await llm.complete({ system, messages: [...messages], maxTokens: 2000, json: true, signal: context.signal });
    context.budget.chargeUsd(llmCostUsd(response.inputTokens, response.outputTokens));
    messages.push({ role: "assistant", content: response.text });
    let value: unknown;
    try {
      value = parseJson(response.text);
    } catch (error) {
      errors = [`the answer is not JSON: ${error instanceof Error ? error.message : String(error)}`];
      continue;
    }
    errors = validationErrors(compiled, value);
    if (errors.length === 0) return value;
  }
  throw new TypedOutputError(`The typed output does not conform to response_schema: ${errors.join("; ")}`, errors, context.budget.costUsd);
}

import { type OutputUnit, type Schema, Validator } from "@cfworker/json-schema";
import { InvalidSchemaError } from "../../errors";

/**
 * The caller's response_schema: checked and compiled before any research is done, read node by
 * node while the typed output is resolved, and the final judge of the object returned.
 */
export interface CompiledSchema {
  schema: Record<string, unknown>;
  validator: Validator;
}

export type SchemaNode = Record<string, unknown>;

const TYPES = new Set(["object", "array", "string", "number", "integer", "boolean", "null"]);

/** Structural checks of a schema (the keywords that must hold schemas, arrays or types). */
function schemaProblems(schema: unknown, path: string): string[] {
  if (typeof schema === "boolean") return [];
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return [`${path || "schema"} must be an object or boolean`];
  const node = schema as SchemaNode;
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
  for (const key of [
    "items",
    "additionalProperties",
    "not",
    "contains",
    "propertyNames",
    "if",
    "then",
    "else",
    "additionalItems",
    "unevaluatedProperties",
    "unevaluatedItems",
  ]) {
    if (node[key] === undefined) continue;
    if (key === "items" && Array.isArray(node[key]))
      (node[key] as unknown[]).forEach((child, index) => problems.push(...schemaProblems(child, `${path}/items/${index}`)));
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
    if (value !== undefined && (typeof value !== "number" || !Number.isInteger(value) || value < 0))
      problems.push(`${path}/${key} must be a non-negative integer`);
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
    if (error instanceof RangeError)
      throw new InvalidSchemaError("response_schema is not a valid JSON Schema: its $ref references form a cycle that never reaches a concrete schema.");
    throw new InvalidSchemaError(`response_schema is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Keywords that only report that a child failed: shown only when nothing more precise is. */
const WRAPPERS = /^(properties|items|prefixItems|allOf|\$ref|additionalItems)$/;

const describe = (error: OutputUnit) => `${error.instanceLocation}: ${error.error}`;

export function validationErrors(compiled: CompiledSchema, value: unknown): string[] {
  const result = compiled.validator.validate(value);
  if (result.valid) return [];
  return result.errors
    .filter((error: OutputUnit) => !WRAPPERS.test(error.keyword) || result.errors.length === 1)
    .map(describe)
    .slice(0, 10);
}

/** The value at a JSON pointer such as "#/items/0/year" (undefined when absent). */
function atPointer(value: unknown, location: string): unknown {
  let node = value;
  for (const raw of location.replace(/^#\/?/, "").split("/").filter(Boolean)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * A model's JSON errors of form only: a field it left out or set to null is not a format error
 * (it is how the model says no source supports the field, which the support check then decides),
 * a string where an integer belongs is (the repair turn can fix it).
 */
export function formatErrors(compiled: CompiledSchema, value: unknown): string[] {
  const result = compiled.validator.validate(value);
  if (result.valid) return [];
  return result.errors
    .filter((error) => error.keyword !== "required" && !WRAPPERS.test(error.keyword) && !/^(anyOf|oneOf)$/.test(error.keyword))
    .filter((error) => atPointer(value, error.instanceLocation) !== null)
    .map(describe)
    .slice(0, 10);
}

// ---------- reading a schema node ----------

/** The schema a local $ref ("#/$defs/person") points at; other references are not followed. */
function dereference(root: SchemaNode, ref: string): SchemaNode | undefined {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  const target = atPointer(root, ref);
  return typeof target === "object" && target !== null && !Array.isArray(target) ? (target as SchemaNode) : undefined;
}

/**
 * A node as the resolver reads it: local $refs followed and allOf branches merged (their
 * properties and required lists combined), so "an object with these fields" reads the same
 * however the schema spells it. `true` (anything) reads as an empty node.
 */
export function readNode(root: SchemaNode, raw: unknown, depth = 0): SchemaNode {
  if (raw === true || typeof raw !== "object" || raw === null || Array.isArray(raw)) return {};
  let node = raw as SchemaNode;
  if (typeof node.$ref === "string" && depth < 16) {
    const target = dereference(root, node.$ref);
    const { $ref: _ref, ...rest } = node;
    node = target ? { ...readNode(root, target, depth + 1), ...rest } : rest;
  }
  if (Array.isArray(node.allOf) && depth < 16) {
    const { allOf, ...rest } = node;
    const merged: SchemaNode = {};
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    for (const branch of [...(allOf as unknown[]).map((entry) => readNode(root, entry, depth + 1)), rest]) {
      Object.assign(properties, branch.properties ?? {});
      if (Array.isArray(branch.required)) required.push(...(branch.required as string[]));
      for (const [key, value] of Object.entries(branch)) if (key !== "properties" && key !== "required") merged[key] ??= value;
    }
    if (Object.keys(properties).length > 0) merged.properties = properties;
    if (required.length > 0) merged.required = [...new Set(required)];
    node = merged;
  }
  return node;
}

/** The branches of a node's anyOf / oneOf (none when it has neither). */
export function branchesOf(node: SchemaNode): unknown[] {
  const list = node.anyOf ?? node.oneOf;
  return Array.isArray(list) ? list : [];
}

/** The JSON type a node asks for (the first non-null one of a list); undefined when it does not say. */
export function typeOf(node: SchemaNode): string | undefined {
  const type = node.type;
  if (Array.isArray(type)) return (type.find((entry) => entry !== "null") as string | undefined) ?? "null";
  if (typeof type === "string") return type;
  if (node.properties) return "object";
  if (node.items || node.prefixItems) return "array";
  return undefined;
}

/** Whether null is a valid value of this node: where the schema allows it, an unsupported field is null. */
export function allowsNull(root: SchemaNode, raw: unknown): boolean {
  const node = readNode(root, raw);
  if ("const" in node) return node.const === null;
  if (Array.isArray(node.enum)) return node.enum.includes(null);
  const branches = branchesOf(node);
  if (branches.length > 0) return branches.some((branch) => allowsNull(root, branch));
  const type = node.type;
  if (type === undefined) return !node.properties && !node.items && !node.prefixItems && node.format === undefined && node.pattern === undefined;
  return type === "null" || (Array.isArray(type) && type.includes("null"));
}

/** The schema of an array's items (the first of a tuple). */
export function itemsOf(node: SchemaNode): unknown {
  if (Array.isArray(node.prefixItems)) return node.prefixItems[0];
  return Array.isArray(node.items) ? node.items[0] : node.items;
}

/** A number or a string that meets the node's own bounds, pattern and lengths (enum and const are read elsewhere). */
export function meetsBounds(node: SchemaNode, value: unknown): boolean {
  if (typeof value === "number") {
    if (typeOf(node) === "integer" && !Number.isInteger(value)) return false;
    if (typeof node.minimum === "number" && value < node.minimum) return false;
    if (typeof node.maximum === "number" && value > node.maximum) return false;
    if (typeof node.exclusiveMinimum === "number" && value <= node.exclusiveMinimum) return false;
    if (typeof node.exclusiveMaximum === "number" && value >= node.exclusiveMaximum) return false;
    if (typeof node.multipleOf === "number" && node.multipleOf > 0 && Math.abs(value / node.multipleOf - Math.round(value / node.multipleOf)) > 1e-9)
      return false;
    return true;
  }
  if (typeof value === "string") {
    const length = [...value].length;
    if (typeof node.minLength === "number" && length < node.minLength) return false;
    if (typeof node.maxLength === "number" && length > node.maxLength) return false;
    if (typeof node.pattern === "string" && !new RegExp(node.pattern, "u").test(value)) return false;
    return true;
  }
  return true;
}

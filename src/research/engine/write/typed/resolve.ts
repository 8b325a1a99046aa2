import type { Basis, Found } from "./basis";
import { booleanCandidates } from "./booleans";
import type { TypedEvidence } from "./evidence";
import { isPersonField } from "./attribution";
import { childPath, type Field, fieldOf, isQuoteField, isYearField, itemPath } from "./field";
import { numberCandidates, supportedNumber } from "./numbers";
import { allowsNull, branchesOf, itemsOf, readNode, typeOf } from "./schema";
import { enumCandidates, stringCandidates, supportedString } from "./strings";

/**
 * Walks the caller's schema and gives each field a value only where a cited passage supports
 * it. Offline it picks the best supported candidate; given a model's JSON it keeps the model's
 * value only when the same candidates support it. A field with no supported value is null where
 * its schema allows null, left out where it is optional, and otherwise reported as missing
 * (the job then fails naming it): null says "looked for, not found" where the caller made room
 * for it, and is preferred over leaving the field out.
 */
export type Resolved = { ok: true; value: unknown; basis: Basis[] } | { ok: false; missing: string[] };

/** `null`: fill from the evidence; `{value}`: check what a model wrote. */
export type Proposal = { value: unknown } | null;

const UNSUPPORTED: Resolved = { ok: false, missing: [] };
/** Deeper than this ($ref recursion) nothing is filled: a value there would rest on nothing new. */
const MAX_DEPTH = 12;
/** Items of a list when the schema sets no maxItems. */
const DEFAULT_MAX_ITEMS = 10;

const found = (field: Field, entry: Found | null | undefined): Resolved =>
  entry ? { ok: true, value: entry.value, basis: entry.support.map((support) => ({ ...support, path: field.path, value: entry.value })) } : UNSUPPORTED;

export function resolve(field: Field, evidence: TypedEvidence, proposal: Proposal, depth = 0): Resolved {
  const { node } = field;
  if ("const" in node) return { ok: true, value: node.const, basis: [] };
  if (depth > MAX_DEPTH) return UNSUPPORTED;
  // A model's null or missing value is how it says nothing supports the field: the caller's
  // policy (null, left out, or missing) applies as to a field the evidence does not fill.
  if (proposal && (proposal.value === null || proposal.value === undefined)) return UNSUPPORTED;
  const branches = branchesOf(node);
  if (branches.length > 0) return resolveBranch(field, evidence, proposal, branches, depth);
  if (Array.isArray(node.enum)) return resolveEnum(field, evidence, proposal, node.enum);
  switch (typeOf(node) ?? untypedAs(proposal)) {
    case "object":
      return resolveObject(field, evidence, proposal, depth);
    case "array":
      return resolveArray(field, evidence, proposal, depth);
    case "number":
    case "integer":
      if (!proposal) return found(field, numberCandidates(field, evidence)[0]);
      return typeof proposal.value === "number" ? found(field, supportedNumber(field, evidence, proposal.value)) : UNSUPPORTED;
    case "boolean":
      return found(
        field,
        booleanCandidates(field, evidence).find((entry) => !proposal || entry.value === proposal.value),
      );
    case "null":
      // Null is the only value: it claims nothing.
      return { ok: true, value: null, basis: [] };
    default:
      if (!proposal) return found(field, stringCandidates(field, evidence)[0]);
      return typeof proposal.value === "string" ? found(field, supportedString(field, evidence, proposal.value)) : UNSUPPORTED;
  }
}

/** A node that names no type is read as what the model wrote, and offline as a sentence. */
function untypedAs(proposal: Proposal): string {
  if (!proposal) return "string";
  const value = proposal.value;
  return Array.isArray(value) ? "array" : typeof value === "object" ? "object" : typeof value;
}

/** anyOf / oneOf: the branch the model's value has the type of, else the first that is not null. */
function resolveBranch(field: Field, evidence: TypedEvidence, proposal: Proposal, branches: unknown[], depth: number): Resolved {
  const typed = branches.map((branch) => readNode(field.root, branch)).filter((branch) => typeOf(branch) !== "null");
  const kind = proposal ? untypedAs(proposal) : undefined;
  const matches = (branch: Record<string, unknown>) => {
    const type = typeOf(branch);
    return type === undefined || type === kind || (kind === "number" && type === "integer" && Number.isInteger(proposal!.value));
  };
  const chosen = proposal ? typed.find(matches) : typed[0];
  if (!chosen) return UNSUPPORTED;
  const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = field.node;
  return resolve({ ...field, node: { ...rest, ...chosen } }, evidence, proposal, depth + 1);
}

function resolveEnum(field: Field, evidence: TypedEvidence, proposal: Proposal, options: unknown[]): Resolved {
  const numbers = options.filter((option): option is number => typeof option === "number");
  const candidates = [
    ...enumCandidates(field, evidence, options),
    ...(numbers.length > 0 ? numberCandidates(field, evidence).filter((entry) => numbers.includes(entry.value as number)) : []),
    ...(options.includes(true) || options.includes(false) ? booleanCandidates(field, evidence).filter((entry) => options.includes(entry.value)) : []),
  ];
  return found(
    field,
    candidates.find((entry) => !proposal || entry.value === proposal.value),
  );
}

function resolveObject(field: Field, evidence: TypedEvidence, proposal: Proposal, depth: number): Resolved {
  if (proposal && (typeof proposal.value !== "object" || Array.isArray(proposal.value))) return UNSUPPORTED;
  const given = (proposal?.value ?? {}) as Record<string, unknown>;
  const properties = (field.node.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(field.node.required) ? (field.node.required as string[]) : []);
  const out: Record<string, unknown> = {};
  const basis: Basis[] = [];
  const missingOf = new Map<string, string[]>();
  // A person's field first: the record's years and quote are then read from that person's pages
  // only ("{speaker, years}" had listed the years of other speakers quoted beside them).
  const keys = [...new Set([...Object.keys(properties), ...required])];
  const children = new Map(
    keys.map((key) => {
      const raw = properties[key] ?? field.node.additionalProperties ?? {};
      return [key, { raw, child: fieldOf(field.root, raw, key, childPath(field.path, key)) }] as const;
    }),
  );
  const asksPerson = (key: string) => isPersonField(children.get(key)!.child);
  let ofPerson: TypedEvidence | null = null;
  for (const key of [...keys.filter(asksPerson), ...keys.filter((key) => !asksPerson(key))]) {
    const { raw, child } = children.get(key)!;
    const result = resolve(
      child,
      ofPerson && (isYearField(child) || isQuoteField(child)) ? ofPerson : evidence,
      proposal ? { value: given[key] } : null,
      depth + 1,
    );
    if (result.ok) {
      out[key] = result.value;
      basis.push(...result.basis);
      if (typeof result.value === "string" && asksPerson(key)) ofPerson ??= evidence.ofSpeaker(result.value);
    } else if (allowsNull(field.root, raw)) out[key] = null;
    else if (required.has(key)) missingOf.set(key, result.missing.length > 0 ? result.missing : [child.path]);
  }
  const missing = keys.flatMap((key) => missingOf.get(key) ?? []);
  // What a model adds beyond the declared properties is checked like any field, and dropped when unsupported.
  if (proposal && field.node.additionalProperties !== false) {
    for (const [key, value] of Object.entries(given)) {
      if (key in properties || required.has(key)) continue;
      const child = fieldOf(field.root, field.node.additionalProperties ?? {}, key, childPath(field.path, key));
      const result = resolve(child, evidence, { value }, depth + 1);
      if (result.ok) {
        out[key] = result.value;
        basis.push(...result.basis);
      }
    }
  }
  // The caller's order of keys, whatever order they were filled in.
  const ordered = Object.fromEntries(
    [...keys.filter((key) => key in out), ...Object.keys(out).filter((key) => !keys.includes(key))].map((key) => [key, out[key]]),
  );
  return missing.length > 0 ? { ok: false, missing } : { ok: true, value: ordered, basis };
}

/**
 * A list holds the supported items only: never padded to minItems, never an empty list standing
 * for "none" (nothing supports that either). Items describing sources are filled one per cited
 * source, other objects one per finding of the brief.
 */
function resolveArray(field: Field, evidence: TypedEvidence, proposal: Proposal, depth: number): Resolved {
  const itemsRaw = itemsOf(field.node) ?? {};
  const itemField = (index: number) => fieldOf(field.root, itemsRaw, field.name, itemPath(field.path, index), field.words);
  const max = typeof field.node.maxItems === "number" ? field.node.maxItems : proposal ? Infinity : DEFAULT_MAX_ITEMS;
  const min = Math.max(1, typeof field.node.minItems === "number" ? field.node.minItems : 0);
  const items: Resolved[] = [];
  const push = (make: (index: number) => Resolved) => {
    if (items.length < max) {
      const result = make(items.length);
      if (result.ok && (!field.node.uniqueItems || !items.some((other) => other.ok && JSON.stringify(other.value) === JSON.stringify(result.value))))
        items.push(result);
    }
  };
  if (proposal) {
    if (!Array.isArray(proposal.value)) return UNSUPPORTED;
    for (const value of proposal.value) push((index) => resolve(itemField(index), evidence, { value }, depth + 1));
  } else {
    const sample = itemField(0);
    const type = typeOf(sample.node) ?? "string";
    if (type === "object" && sourceItems(sample.node))
      for (const { index } of evidence.sources) push((at) => resolve(itemField(at), evidence.ofSource(index), null, depth + 1));
    else if (type === "object")
      for (const statement of evidence.statements) push((at) => resolve(itemField(at), evidence.ofStatement(statement), null, depth + 1));
    else for (const entry of leafCandidates(sample, evidence, type)) push((at) => found(itemField(at), entry));
  }
  if (items.length < min) return UNSUPPORTED;
  return { ok: true, value: items.map((item) => (item.ok ? item.value : null)), basis: items.flatMap((item) => (item.ok ? item.basis : [])) };
}

/** Every supported value of a scalar item, for a list of them. */
function leafCandidates(field: Field, evidence: TypedEvidence, type: string): Found[] {
  if (Array.isArray(field.node.enum)) return enumCandidates(field, evidence, field.node.enum);
  if (type === "number" || type === "integer") return numberCandidates(field, evidence);
  if (type === "boolean") return booleanCandidates(field, evidence);
  return stringCandidates(field, evidence);
}

/** Objects with a url, link, title or domain describe a source: one item per cited source. */
function sourceItems(node: Record<string, unknown>): boolean {
  return Object.keys((node.properties ?? {}) as object).some((key) => /url|link|title|domain|source/i.test(key));
}

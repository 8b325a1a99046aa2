import type { CitationDto } from "../../../shapes";
import type { Passage } from "../../evidence";
import { citationOf, type Synthesis } from "../brief-writer";
import type { Confidence } from "./evidence";
import { fieldLabel } from "./field";

/**
 * The basis of a typed object: for every value it holds, the passage of a cited source that
 * supports it and how strongly. A value without one is never returned (the resolver leaves the
 * field null, out, or fails the job), so every field with a value has at least one entry.
 */
export interface Support {
  /** Index into the result's `sources`. */
  source: number;
  passage: Passage;
  confidence: Confidence;
}

/** A value the evidence supports, with what supports it. */
export interface Found {
  value: unknown;
  support: Support[];
}

export interface Basis extends Support {
  /** The field's path in the typed object ("year", "author.born", "findings[0]"). */
  path: string;
  value: unknown;
}

const display = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** One citation entry per basis, with `field` and `confidence`, quoting its passage exactly. */
export function basisCitations(basis: Basis[], synthesis: Synthesis): CitationDto[] {
  return basis.map((entry) => ({
    ...citationOf(`${fieldLabel(entry.path)}: ${display(entry.value)}`, entry.source, synthesis.cited[entry.source]!, entry.passage),
    field: fieldLabel(entry.path),
    confidence: entry.confidence,
  }));
}

import type { CitationDto, SourceDto } from "../shapes";

/** Errors the engine reports to the jobs layer, which maps them to job states. */

/**
 * What a cancelled job still found while it was gathering: an extractive brief of the pages read
 * so far, with its sources and citations. Only a cancel that stopped the gathering yields one: once
 * every page was read, that brief would be the whole research at the metered price.
 */
export interface FoundBeforeFailure {
  brief: string;
  sources: SourceDto[];
  citations: CitationDto[];
}

/**
 * The run stopped before its end: cancelled, or its deadline passed. Carries what was spent so
 * far (for the charge) and, once the pipeline has written it, the partial brief of what was read
 * (a cancelled job returns it; a job out of time is refunded and returns nothing).
 */
export class ResearchCancelledError extends Error {
  found: FoundBeforeFailure | null = null;

  constructor(
    readonly costUsd: number,
    readonly waves: number,
  ) {
    super("Research cancelled.");
    this.name = "ResearchCancelledError";
  }
}

/**
 * The typed output did not conform to response_schema (after the one repair attempt). The job
 * fails and is refunded, so it hands over none of the research: only this error.
 */
export class TypedOutputError extends Error {
  constructor(
    message: string,
    readonly errors: string[],
    readonly costUsd: number,
  ) {
    super(message);
    this.name = "TypedOutputError";
  }
}

/** A required field of response_schema that no cited passage supports: the job fails rather than invent it. */
export class UnsupportedFieldsError extends TypedOutputError {
  constructor(
    readonly fields: string[],
    costUsd: number,
  ) {
    super(
      // A sentence, with its full stop: it is the job's `error`, shown as it is.
      `Typed output: no source supports the required field(s) ${fields.join(", ")}.`,
      fields.map((field) => `${field}: no source supports it`),
      costUsd,
    );
    this.name = "UnsupportedFieldsError";
  }
}

/** response_schema is not a usable JSON Schema: rejected before any work. */
export class InvalidSchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidSchemaError";
  }
}

/** Nothing could be gathered (every provider call failed, or the deadline hit first). */
export class NoEvidenceError extends Error {
  constructor(
    message: string,
    readonly costUsd: number,
  ) {
    super(message);
    this.name = "NoEvidenceError";
  }
}

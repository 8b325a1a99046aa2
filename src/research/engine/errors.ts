/** Errors the engine reports to the jobs layer, which maps them to job states. */

/** The job was cancelled between steps; carries what was spent so far (for the charge). */
export class ResearchCancelledError extends Error {
  constructor(
    readonly costUsd: number,
    readonly waves: number,
  ) {
    super("Research cancelled.");
    this.name = "ResearchCancelledError";
  }
}

/** The typed output did not conform to response_schema (after the one repair attempt). */
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

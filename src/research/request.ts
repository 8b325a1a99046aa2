import { z } from "@hono/zod-openapi";
import type { Config } from "../env";
import { ApiError } from "../lib/errors";
import { jsonDepthExceeds } from "../lib/json-depth";
import { budgetsForMode, impossibleBudgetReason, RESEARCH_MODES, type ResearchBudgets, type ResearchMode, reservationCredits, SYNC_WALLCLOCK_LIMIT_SECS } from "./pricing";
import { webhookUrlProblem } from "../webhooks/destination";
import { compileSchema, InvalidSchemaError } from "./engine";

export const MAX_QUESTION_LENGTH = 2000;
export const MAX_SCHEMA_BYTES = 16 * 1024;
/** Nesting levels a response_schema may have (objects and arrays); real schemas use a handful. */
export const MAX_SCHEMA_DEPTH = 32;
export const MAX_DOMAINS = 50;
/** Collections one request may name. */
export const MAX_COLLECTIONS = 10;

const Domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(\*\.)?([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}\.?$/, { error: "must be a domain name such as example.com" });

export const ResearchRequestSchema = z
  .strictObject({
    question: z
      .string()
      .trim()
      .min(1, { error: "must not be empty" })
      .max(MAX_QUESTION_LENGTH, { error: `must be at most ${MAX_QUESTION_LENGTH} characters` }),
    mode: z.enum(RESEARCH_MODES).default("standard"),
    max_credits: z.int().min(1).max(1_000_000).nullable().optional(),
    max_wallclock_secs: z.int().min(0).max(3600).nullable().optional(),
    response_schema: z.record(z.string(), z.unknown()).nullable().optional(),
    include_sources: z.boolean().default(true),
    async: z.boolean().optional(),
    webhook_url: z.string().max(2048).nullable().optional(),
    include_domains: z.array(Domain).max(MAX_DOMAINS).optional(),
    exclude_domains: z.array(Domain).max(MAX_DOMAINS).optional(),
    collections: z
      .array(z.uuid({ error: "must be collection ids" }))
      .min(1)
      .max(MAX_COLLECTIONS)
      .optional()
      .openapi({ description: "Search these collections of yours (at most 10) instead of the default search space. An unknown id, or another account's, is 404 and nothing is reserved." }),
    web: z.boolean().optional().openapi({ description: "With `collections`: also search the default search space (the configured web search, or the shared corpus offline). Default false." }),
  })
  .openapi("ResearchRequest");

export type ResearchRequest = z.infer<typeof ResearchRequestSchema>;

/** What a valid request turns into: its price, envelope and how it is answered. */
export interface ResearchPlan {
  request: ResearchRequest;
  mode: ResearchMode;
  budgets: ResearchBudgets;
  /** Reserved at submit: the fixed price, or max_credits for max. */
  reservedCredits: number;
  async: boolean;
}

/**
 * The rules of POST /v1/research that need more than the schema: max needs max_credits (400),
 * response_schema must be a valid JSON Schema of at most 16 KiB, webhook_url must be safe, and the
 * envelope must be possible (400 impossible_budget). Runs before anything is written or charged.
 */
export function planResearch(request: ResearchRequest, config: Config): ResearchPlan {
  const mode = request.mode;
  const budgets = budgetsForMode(mode, { maxCredits: request.max_credits, maxWallclockSecs: request.max_wallclock_secs });
  if (request.response_schema) {
    // Checked first: everything after it (size, compile, the idempotency hash) walks the schema.
    if (jsonDepthExceeds(request.response_schema, MAX_SCHEMA_DEPTH)) {
      throw ApiError.invalid(`Invalid request: response_schema must not nest objects and arrays more than ${MAX_SCHEMA_DEPTH} levels deep.`);
    }
    if (new TextEncoder().encode(JSON.stringify(request.response_schema)).length > MAX_SCHEMA_BYTES) {
      throw ApiError.invalid(`Invalid request: response_schema must be at most ${MAX_SCHEMA_BYTES} bytes of JSON.`);
    }
    try {
      compileSchema(request.response_schema);
    } catch (error) {
      if (error instanceof InvalidSchemaError) throw ApiError.invalid(`Invalid request: ${error.message}`);
      throw error;
    }
  }
  if (request.webhook_url) {
    const problem = webhookUrlProblem(request.webhook_url, config.ENVIRONMENT);
    if (problem) throw ApiError.invalid(`Invalid request: ${problem}.`);
  }
  const impossible = impossibleBudgetReason(budgets);
  if (impossible) throw new ApiError("impossible_budget", impossible);
  return {
    request,
    mode,
    budgets,
    reservedCredits: reservationCredits(mode, request.max_credits),
    async: request.async === true || Boolean(request.webhook_url) || budgets.max_wallclock_secs > SYNC_WALLCLOCK_LIMIT_SECS,
  };
}

import { z } from "@hono/zod-openapi";
import type { Config } from "../../env";
import { ApiError } from "../../lib/errors";
import { jsonDepthExceeds } from "../../lib/json-depth";
import {
  budgetsForMode,
  followUpBudgets,
  followUpReservation,
  impossibleBudgetReason,
  MODES,
  modePrices,
  RESEARCH_MODES,
  type ResearchBudgets,
  type ResearchMode,
  reservationCredits,
  SYNC_WALLCLOCK_LIMIT_SECS,
} from "../pricing";
import { webhookDestinationRefusal } from "../../webhooks/destination";
import { LIFECYCLE_EVENTS } from "../../webhooks/headers";
import { compileSchema, InvalidSchemaError } from "../engine";
import { PlanFields } from "./plan-fields";

const MAX_QUESTION_LENGTH = 2000;
const MAX_SCHEMA_BYTES = 16 * 1024;
/** Nesting levels a response_schema may have (objects and arrays); real schemas use a handful. */
const MAX_SCHEMA_DEPTH = 32;
const MAX_DOMAINS = 50;
/** Collections one request may name. */
const MAX_COLLECTIONS = 10;

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
      .max(MAX_QUESTION_LENGTH, { error: `must be at most ${MAX_QUESTION_LENGTH} characters` })
      .openapi({ description: `The question to research, 1 to ${MAX_QUESTION_LENGTH} characters (trimmed).` }),
    mode: z
      .enum(RESEARCH_MODES)
      .default("standard")
      .openapi({
        description: `How much research to do, which fixes the price and the limits (\`GET /api/billing/modes\`): ${modePrices()
          .map(
            (m) =>
              `\`${m.mode}\` ${m.credits === null ? "metered up to `max_credits`" : `${m.credits} credits`}, ${m.max_wallclock_secs} s, ${m.max_sources} sources${m.critic ? ", a critic stage" : ""}`,
          )
          .join("; ")}. Default \`standard\`.`,
      }),
    max_credits: z.int().min(1).max(1_000_000).nullable().optional().openapi({
      description:
        "A hard cap on the credits this job may cost, 1 to 1,000,000. Required with `max` mode (its cost envelope is `max_credits` / 100 USD, and that many credits are reserved). Informational for the fixed-price modes.",
    }),
    max_wallclock_secs: z
      .int()
      .min(0)
      .max(3600)
      .nullable()
      .optional()
      .openapi({
        description: `Overrides the mode's wall-clock limit, in seconds (0 to 3600). Above ${SYNC_WALLCLOCK_LIMIT_SECS} the job runs asynchronously (202); below the mode's synthesis time reserve (${RESEARCH_MODES.map((m) => `${m} ${MODES[m].synthesisTimeReserveSecs} s`).join(", ")}) it is 400 \`impossible_budget\`. Null or absent: the mode's limit.`,
      }),
    response_schema: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .openapi({
        description: `A JSON Schema (draft 2020-12, at most ${MAX_SCHEMA_BYTES / 1024} KiB of JSON, nesting at most ${MAX_SCHEMA_DEPTH} levels): the brief is also cast into an object that conforms to it, returned as \`typed\`. An invalid schema is 400; an output that cannot be made to conform fails the job (refunded).`,
      }),
    include_sources: z
      .boolean()
      .default(true)
      .openapi({ description: "Whether each source carries a `summary` (the sentences the brief relies on). Default true." }),
    async: z
      .boolean()
      .optional()
      .openapi({
        description: `True runs the job in the background (202) whatever its budget. Otherwise the job answers 200 with its result, unless \`webhook_url\` is set or its wall clock exceeds ${SYNC_WALLCLOCK_LIMIT_SECS} s (then 202).`,
      }),
    webhook_url: z.string().max(2048).nullable().optional().openapi({
      description:
        "Where to POST the final result, signed (see Webhooks above). Setting it makes the job asynchronous (202). An https URL of at most 2048 characters, without credentials, to a public address (never private, loopback, link-local or metadata ranges).",
    }),
    webhook_events: z
      .array(z.enum(LIFECYCLE_EVENTS))
      .min(1)
      .max(LIFECYCLE_EVENTS.length)
      .optional()
      .openapi({
        description:
          "Which events to POST to `webhook_url` (needs it): `research.started`, `research.progress` (at most one per wave and one every 10 s), and the terminal one of `research.completed` (succeeded), `research.failed` or `research.cancelled`. Absent: the one delivery of before, `research.completed` for any terminal status, whose body is the result.",
        example: ["research.started", "research.progress", "research.completed", "research.failed", "research.cancelled"],
      }),
    include_domains: z
      .array(Domain)
      .max(MAX_DOMAINS)
      .optional()
      .openapi({ description: `Search only these domains (at most ${MAX_DOMAINS}); a domain also matches its subdomains. Every source obeys it.` }),
    exclude_domains: z
      .array(Domain)
      .max(MAX_DOMAINS)
      .optional()
      .openapi({ description: `Never use these domains (at most ${MAX_DOMAINS}); a domain also matches its subdomains. Applied after \`include_domains\`.` }),
    collections: z
      .array(z.uuid({ error: "must be collection ids" }))
      .min(1)
      .max(MAX_COLLECTIONS)
      .optional()
      .openapi({
        description:
          "Search these collections of yours (at most 10) instead of the default search space. An unknown id, or another account's, is 404 and nothing is reserved.",
      }),
    web: z.boolean().optional().openapi({
      description: "With `collections`: also search the default search space (the configured web search, or the shared corpus offline). Default false.",
    }),
    previous_job_id: z.uuid({ error: "must be a research job id" }).optional().openapi({
      description:
        "Follow up one of your succeeded jobs: this job starts from that job's evidence (every page its thread read, with the text as read: never read again), searches only for what the question adds, and cites old and new sources in one numbering. Priced by what it adds: a quarter of the mode's price plus its own metered work, at most that quarter plus half the price (`POST /v1/research/quote` shows it). Another account's job, or an unknown one, is 404; a job that has not succeeded, or a thread already 10 jobs long, is 400; nothing is reserved then.",
      example: "2b1c7f9e-4d3a-4c8b-9e2f-1a6d5c4b3a29",
    }),
    // A reviewed plan (POST /v1/research/plan) and its edits: research/submit/plans.ts.
    ...PlanFields,
  })
  .openapi("ResearchRequest", { description: "A research question and how to research it. Unknown fields are rejected (400)." });

export type ResearchRequest = z.infer<typeof ResearchRequestSchema>;

/** What a valid request turns into: its price, envelope and how it is answered. */
export interface ResearchPlan {
  request: ResearchRequest;
  mode: ResearchMode;
  budgets: ResearchBudgets;
  /** Reserved at submit: the fixed price, or max_credits for max. */
  reservedCredits: number;
  async: boolean;
  /** The reviewed plan the job runs (plan_id, with its edits), once the submit checked it (research/submit/plan-store.ts). */
  reviewed?: { id: string; subQuestions: string[]; queries: string[] } | null;
}

/**
 * The rules of POST /v1/research that need more than the schema: max needs max_credits (400),
 * response_schema must be a valid JSON Schema of at most 16 KiB, webhook_url must be safe (outside
 * development its host name is resolved: a name with an internal address, or none, is 400), and
 * the envelope must be possible (400 impossible_budget). Runs before anything is written or charged.
 */
export async function planResearch(request: ResearchRequest, config: Config): Promise<ResearchPlan> {
  const mode = request.mode;
  const envelope = budgetsForMode(mode, { maxCredits: request.max_credits, maxWallclockSecs: request.max_wallclock_secs });
  // A follow-up (issue 45) reads only what it adds: its work is capped lower, and so is its price.
  const budgets = request.previous_job_id ? followUpBudgets(mode, envelope) : envelope;
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
  if (request.webhook_events && !request.webhook_url) throw ApiError.invalid("Invalid request: webhook_events needs webhook_url.");
  if (request.webhook_url) {
    const refusal = await webhookDestinationRefusal(request.webhook_url, config);
    if (refusal) throw ApiError.invalid(`Invalid request: ${refusal.problem}.`);
  }
  const impossible = impossibleBudgetReason(budgets);
  if (impossible) throw new ApiError("impossible_budget", impossible);
  return {
    request,
    mode,
    budgets,
    reservedCredits: request.previous_job_id ? followUpReservation(mode, request.max_credits) : reservationCredits(mode, request.max_credits),
    async: request.async === true || Boolean(request.webhook_url) || budgets.max_wallclock_secs > SYNC_WALLCLOCK_LIMIT_SECS,
  };
}

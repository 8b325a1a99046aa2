import { z } from "@hono/zod-openapi";
import { validationError } from "../../http/openapi";
import { sha256Hex } from "../../lib/crypto";
import { checkIdempotencyKey } from "../../lib/idempotency-key";
import { modePrices, RESEARCH_MODES, type ResearchRequest, ResearchRequestSchema, submit, type SubmitResponse } from "../../research/service";
import type { McpCaller } from "./caller";
import { withinConnectionCap } from "./connection-cap";

function modesDescription(): string {
  const modes = modePrices().map((mode) => {
    const price = mode.credits === null ? "metered up to max_credits" : `${mode.credits} credits`;
    return `${mode.mode} (${price}, at most ${mode.max_wallclock_secs} s, up to ${mode.max_sources} sources)`;
  });
  return `How deep to go; the price is fixed per mode and reserved up front (1 credit = $0.01): ${modes.join("; ")}. Default standard.`;
}

/**
 * The request's arguments, with a description on each for the model that fills them in: what
 * quote_research prices. They only carry types: the rules (lengths, domain syntax, max_credits
 * for max, schema size...) are those of POST /v1/research, applied by its own schema, so both
 * surfaces accept and refuse the same things.
 */
export const QuoteArgs = {
  question: z.string().describe("The question to research, in plain language (1 to 2000 characters)."),
  mode: z.enum(RESEARCH_MODES).optional().describe(modesDescription()),
  max_credits: z
    .number()
    .int()
    .optional()
    .describe("Required with mode max: the most credits the job may cost (reserved up front; what it does not use is given back)."),
  include_domains: z
    .array(z.string())
    .optional()
    .describe('Search only these domains, e.g. ["loc.gov", "archives.gov"] (at most 50; a domain also matches its subdomains).'),
  exclude_domains: z.array(z.string()).optional().describe("Never use pages from these domains (at most 50)."),
  collections: z.array(z.string()).optional().describe("Ids of your own document collections to search instead of the default search space (at most 10)."),
  web: z.boolean().optional().describe("With collections: also search the default search space. Default false."),
  previous_job_id: z
    .string()
    .optional()
    .describe(
      "A follow-up: the id of one of your succeeded jobs. The new job starts from that job's sources and passages (never read again), searches only for what this question adds, cites old and new sources in one numbering, and costs less (a quarter of the mode's price plus its own work; quote_research shows it). A thread holds at most 10 jobs.",
    ),
  response_schema: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("A JSON Schema (at most 16 KiB) for a typed output returned beside the brief, each field backed by cited passages."),
};

/** deep_research's and start_research's arguments: the request's, and the key that makes a repeat return the same job. */
export const ResearchArgs = {
  ...QuoteArgs,
  plan_id: z
    .string()
    .optional()
    .describe(
      "Run a plan made by plan_research for the same question and mode: the job's first searches are exactly the plan's (or your queries). A plan runs once.",
    ),
  queries: z
    .array(z.string())
    .optional()
    .describe("With plan_id: the first searches as you edited them (1 to the plan's max_queries, each at most 200 characters), searched exactly."),
  sub_questions: z.array(z.string()).optional().describe("With plan_id: the plan's sub-questions as you edited them (at most 8)."),
  idempotency_key: z
    .string()
    .optional()
    .describe(
      "Like the REST Idempotency-Key header: the same key with the same arguments within 24 hours returns the original job instead of paying for a new one " +
        "(deep_research and start_research share keys: deep_research with start_research's key follows that job).",
    ),
};

export type QuoteArgsValue = z.infer<z.ZodObject<typeof QuoteArgs>>;
export type ResearchArgsValue = z.infer<z.ZodObject<typeof ResearchArgs>>;

/**
 * The REST request the arguments stand for, checked by POST /v1/research's own schema. Always
 * asynchronous: the tools follow the job or hand out its id (so an `idempotency_key` used for a
 * synchronous REST request is another body here: 422).
 */
export function researchRequest(args: QuoteArgsValue): ResearchRequest {
  const parsed = ResearchRequestSchema.safeParse({ ...args, async: true });
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

/**
 * The same submit as POST /v1/research with this key (origin "api", the same reservation and
 * 402); through an OAuth connection, first held against the connection's credit cap.
 */
export async function submitArgs(caller: McpCaller, args: ResearchArgsValue): Promise<{ request: ResearchRequest; submitted: SubmitResponse }> {
  const { idempotency_key: given, ...fields } = args;
  const request = researchRequest(fields);
  const idempotencyKey = await scopedIdempotencyKey(caller, given);
  const submitted = await withinConnectionCap(caller, request, () =>
    submit(caller.deps, { user: caller.user, origin: "api", apiKeyId: caller.apiKeyId }, request, {
      idempotencyKey,
      resourceBase: `${caller.origin}/v1/research`,
    }),
  );
  return { request, submitted };
}

/**
 * An OAuth connection's idempotency keys are its own: scoped to the connection (its id and the
 * key's hash, within the 255 characters a key may have), so a repeat never hands it a job the
 * account started with an API key or another connection. An API key's pass unchanged.
 */
async function scopedIdempotencyKey(caller: McpCaller, key: string | undefined): Promise<string | undefined> {
  if (!caller.connection || key === undefined) return key;
  checkIdempotencyKey(key);
  return `${caller.connection.id}:${await sha256Hex(key)}`;
}

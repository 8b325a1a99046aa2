import { z } from "@hono/zod-openapi";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { validationError } from "../../http/openapi";
import { SECOND } from "../../lib/time";
import { cancelJob, followJob, getJob, modePrices, RESEARCH_MODES, type ResearchResult, ResearchRequestSchema, submit } from "../../research/service";
import type { McpCaller } from "./caller";
import { progressMessage, resultText } from "./format";
import { trackCall } from "./in-flight";
import { asTool, toolResult } from "./tool-results";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Beyond the mode's wall clock, as long as a synchronous POST /v1/research waits for its result. */
const FOLLOW_GRACE_MS = 20 * SECOND;

function modesDescription(): string {
  const modes = modePrices().map((mode) => {
    const price = mode.credits === null ? "metered up to max_credits" : `${mode.credits} credits`;
    return `${mode.mode} (${price}, at most ${mode.max_wallclock_secs} s, up to ${mode.max_sources} sources)`;
  });
  return `How deep to go; the price is fixed per mode and reserved up front (1 credit = $0.01): ${modes.join("; ")}. Default standard.`;
}

/**
 * The arguments, with a description on each for the model that fills them in. They only carry
 * types: the rules (lengths, domain syntax, max_credits for max, schema size...) are those of
 * POST /v1/research, applied by its own schema, so both surfaces accept and refuse the same things.
 */
export const DeepResearchInput = {
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
    .describe('Search only these domains, e.g. ["loc.gov", "*.gov"] (at most 50; "*." includes subdomains).'),
  exclude_domains: z.array(z.string()).optional().describe("Never use pages from these domains (at most 50)."),
  collections: z
    .array(z.string())
    .optional()
    .describe("Ids of your own document collections to search instead of the default search space (at most 10)."),
  web: z.boolean().optional().describe("With collections: also search the default search space. Default false."),
  response_schema: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("A JSON Schema (at most 16 KiB) for a typed output returned beside the brief, each field backed by cited passages."),
  idempotency_key: z
    .string()
    .optional()
    .describe("Like the REST Idempotency-Key header: the same key with the same arguments within 24 hours returns the original job instead of paying for a new one."),
};

type DeepResearchArgs = z.infer<z.ZodObject<typeof DeepResearchInput>>;

/** A finished job as a tool result: a failed or cancelled job is an error result that still carries the job. */
export function researchToolResult(result: ResearchResult): CallToolResult {
  return toolResult(resultText(result), result, result.status === "failed" || result.status === "cancelled");
}

/** Sends notifications/progress when the client asked for them (a progressToken); a client gone away is ignored. */
function progressReporter(extra: Extra) {
  const token = extra._meta?.progressToken;
  let sent = 0;
  return async (message: string) => {
    if (token === undefined) return;
    sent += 1;
    try {
      await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: sent, message } });
    } catch {
      // The response stream is gone; the request's abort signal handles what follows.
    }
  };
}

/**
 * deep_research: the same submit as POST /v1/research (origin "api", this key, the same
 * reservation and 402), always asynchronous, then the job's event stream relayed as progress
 * notifications until its result. If the MCP request is aborted (the client cancelled it or went
 * away), the job is cancelled: charged only for the work done, like DELETE /v1/research/{id}.
 */
export function deepResearch(caller: McpCaller) {
  return (args: DeepResearchArgs, extra: Extra): Promise<CallToolResult> =>
    asTool(async () => {
      const { idempotency_key: idempotencyKey, ...fields } = args;
      const parsed = ResearchRequestSchema.safeParse({ ...fields, async: true });
      if (!parsed.success) throw validationError(parsed.error);
      const request = parsed.data;
      const { deps, user } = caller;
      const submitted = await submit(deps, { user, origin: "api", apiKeyId: caller.apiKeyId }, request, {
        idempotencyKey,
        resourceBase: `${caller.origin}/v1/research`,
      });
      // An asynchronous submit answers 202; a 200 (a finished result) would need no following.
      if (submitted.status === 200) return researchToolResult(submitted.body);
      const jobId = submitted.body.id;
      const report = progressReporter(extra);
      await report(`Job ${jobId} accepted (${request.mode}); follow it with get_research if this call is interrupted.`);

      const onAbort = () => {
        // Registered with the runtime at once: the request may be ending (its client left).
        deps.defer(cancelJob(deps, user.id, jobId).catch((error) => console.error(`mcp: cancelling job ${jobId}`, error)));
      };
      if (extra.signal.aborted) onAbort();
      else extra.signal.addEventListener("abort", onAbort, { once: true });
      const untrack = trackCall(caller.apiKeyId, caller.sessionId, extra.requestId, { userId: user.id, jobId });
      // Following ends with the result, when the request is aborted, or past the mode's wall clock.
      const wallclockSecs = modePrices().find((mode) => mode.mode === request.mode)!.max_wallclock_secs;
      const pastDeadline = new AbortController();
      const deadlineTimer = setTimeout(() => pastDeadline.abort(), wallclockSecs * SECOND + FOLLOW_GRACE_MS);
      const signal = AbortSignal.any([extra.signal, pastDeadline.signal]);
      try {
        for await (const event of followJob(deps, user.id, jobId, { signal })) {
          const message = progressMessage(event);
          if (message) await report(message);
          if (event.event === "result") return researchToolResult(event.data);
        }
        // Nobody reads this answer (the request was aborted); it says what happened all the same.
        if (extra.signal.aborted) return { isError: true, content: [{ type: "text", text: `The request was cancelled, and job ${jobId} with it.` }] };
        // Past the mode's wall clock and still not settled (the sweep will settle it): say where it stands.
        const current = await getJob(deps, user.id, jobId);
        return researchToolResult(current);
      } finally {
        clearTimeout(deadlineTimer);
        untrack();
        extra.signal.removeEventListener("abort", onAbort);
      }
    });
}

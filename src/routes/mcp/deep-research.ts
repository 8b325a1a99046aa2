import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { SECOND } from "../../lib/time";
import { budgetsForMode, cancelJob, followJob, getJob, type ResearchResult } from "../../research/service";
import type { McpCaller } from "./caller";
import { progressMessage, resultText } from "./format";
import { trackCall } from "./in-flight";
import { PageProgress, progressReporter } from "./progress";
import { type ResearchArgsValue, submitArgs } from "./research-args";
import { asTool, toolResult } from "./tool-results";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Beyond the mode's wall clock, as long as a synchronous POST /v1/research waits for its result. */
const FOLLOW_GRACE_MS = 20 * SECOND;

/** A finished job as a tool result: a failed or cancelled job is an error result that still carries the job. */
export function researchToolResult(result: ResearchResult): CallToolResult {
  return toolResult(resultText(result), result, result.status === "failed" || result.status === "cancelled");
}

/**
 * deep_research: the same submit as POST /v1/research (origin "api", this key, the same
 * reservation and 402), always asynchronous, then the job's event stream relayed as progress
 * notifications (pages read against the envelope's) until its result. If the MCP request is
 * aborted (the client cancelled it or went away), the job is cancelled: charged only for the work
 * done, like DELETE /v1/research/{id}.
 */
export function deepResearch(caller: McpCaller) {
  return (args: ResearchArgsValue, extra: Extra): Promise<CallToolResult> =>
    asTool(async () => {
      const { request, submitted } = await submitArgs(caller, args);
      // An asynchronous submit answers 202; a 200 (a finished result) would need no following.
      if (submitted.status === 200) return researchToolResult(submitted.body);
      const { deps, user } = caller;
      const jobId = submitted.body.id;
      const budgets = budgetsForMode(request.mode, { maxCredits: request.max_credits, maxWallclockSecs: request.max_wallclock_secs });
      const report = progressReporter(extra, new PageProgress(budgets.max_pages));
      await report(`Job ${jobId} accepted (${request.mode}); follow it with get_research if this call is interrupted.`);

      const onAbort = () => {
        // Registered with the runtime at once: the request may be ending (its client left).
        deps.defer(cancelJob(deps, user.id, jobId).catch((error) => console.error(`mcp: cancelling job ${jobId}`, error)));
      };
      if (extra.signal.aborted) onAbort();
      else extra.signal.addEventListener("abort", onAbort, { once: true });
      const untrack = trackCall(caller.credentialId, caller.sessionId, extra.requestId, { userId: user.id, jobId });
      // Following ends with the result, when the request is aborted, or past the job's wall clock.
      const pastDeadline = new AbortController();
      const deadlineTimer = setTimeout(() => pastDeadline.abort(), budgets.max_wallclock_secs * SECOND + FOLLOW_GRACE_MS);
      const signal = AbortSignal.any([extra.signal, pastDeadline.signal]);
      try {
        for await (const event of followJob(deps, user.id, jobId, { signal })) {
          const message = progressMessage(event);
          if (message) await report(message, event);
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

import { ApiError } from "../../lib/errors";
import { quote, type ResearchRequest, type SubmitResponse } from "../../research/service";
import { attachJob, findConnection, holdCredits, isConnectionJob, releaseHold } from "../../services/oauth/connections";
import type { McpCaller } from "./caller";

/**
 * A submit through an OAuth connection, bounded by the connection's credit cap: the job's
 * reservation is held against the cap first (one conditional insert: concurrent submits cannot
 * both pass it), then the submit runs; a refused or failed submit gives the hold back. Over the
 * cap is 402 `insufficient_credits`, before anything is reserved or charged. With an API key the
 * submit runs as it is.
 */
export async function withinConnectionCap(caller: McpCaller, request: ResearchRequest, run: () => Promise<SubmitResponse>): Promise<SubmitResponse> {
  const { connection } = caller;
  if (!connection) return run();
  const { db } = caller.deps;
  const { credits_reserved: credits } = await quote(caller.deps, caller.user, request);
  const hold = await holdCredits(db, connection.id, credits);
  if (!hold) {
    const current = await findConnection(db, caller.user.id, connection.id);
    const left = current ? Math.max(0, current.creditCap - current.spent - current.reserved) : 0;
    throw new ApiError(
      "insufficient_credits",
      `This ${request.mode} job needs ${credits} credits; this connection's credit cap (${connection.creditCap}) has ${left} left. The account owner can connect the agent again with a higher cap.`,
    );
  }
  let submitted: SubmitResponse;
  try {
    submitted = await run();
  } catch (error) {
    await releaseHold(db, hold);
    throw error;
  }
  await attachJob(db, hold, submitted.body.id);
  return submitted;
}

/** Through an OAuth connection, only the jobs it started exist: any other is 404, like another account's. */
export async function assertConnectionJob(caller: McpCaller, jobId: string): Promise<void> {
  if (!caller.connection) return;
  if (!(await isConnectionJob(caller.deps.db, caller.connection.id, jobId))) throw ApiError.notFound("Research job");
}

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { call, expectLedgerConsistent } from "../helpers";
import { apiCaller, balanceOf, corpusLoaded, eventually, holdTasks, waitForTerminal } from "../research/helpers";
import { mcpClient } from "./helpers";

/**
 * A deep_research call whose MCP request ends early cancels its job, charged only for the work
 * done (DELETE /v1/research/{id}). The job is held mid-wave (its fan-out answers held back) so the
 * call is surely still running when it is cancelled.
 */

const QUESTION = "What ended the Nullification Crisis?";
let hold: ReturnType<typeof holdTasks> | null = null;
afterEach(async () => {
  await hold?.release();
  hold = null;
});

/** Starts deep_research (standard) and resolves once its job is held mid-wave. */
async function startHeldCall(client: Client, signal?: AbortSignal) {
  hold = holdTasks();
  let jobId: string | undefined;
  const progress: Progress[] = [];
  const pending = client
    .callTool({ name: "deep_research", arguments: { question: QUESTION, mode: "standard" } }, undefined, {
      signal,
      onprogress: (update) => {
        progress.push(update);
        jobId ??= /^Job (\S+) accepted/.exec(update.message ?? "")?.[1];
      },
    })
    .then(
      (result) => ({ result, error: null }),
      (error: Error) => ({ result: null, error }),
    );
  const id = await eventually(() => jobId && hold!.heldFor(jobId).length > 0 && jobId, "the job held mid-wave");
  return { id, pending, progress };
}

async function expectCancelledAndCharged(caller: Awaited<ReturnType<typeof apiCaller>>, id: string) {
  const job = await waitForTerminal(caller, id);
  expect(job.status).toBe("cancelled");
  expect(job.credits_charged).toBeLessThan(60);
  expect(await balanceOf(caller)).toBe(500 - job.credits_charged);
  await expectLedgerConsistent(caller.id);
}

describe("cancelling deep_research", () => {
  it("aborting the call (the client sends notifications/cancelled) cancels the job", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const { client } = await mcpClient(caller.key);
    const abort = new AbortController();
    const { id, pending } = await startHeldCall(client, abort.signal);
    abort.abort("changed my mind");
    expect((await pending).error?.message).toMatch(/changed my mind/);
    await expectCancelledAndCharged(caller, id);
    await client.close();
  });

  it("closing the connection mid-call cancels the job", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const { client } = await mcpClient(caller.key);
    const { id, pending } = await startHeldCall(client);
    await client.close();
    expect((await pending).error?.message).toMatch(/Connection closed/);
    await expectCancelledAndCharged(caller, id);
  });

  it("a cancellation is matched by key, session and request id: another session's does nothing", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    let callId: unknown;
    const { client, transport } = await mcpClient(caller.key, (message) => {
      const { method, id } = message as { method?: string; id?: unknown };
      if (method === "tools/call") callId = id;
    });
    const { id, pending, progress } = await startHeldCall(client);
    const cancel = (sessionId: string) =>
      call("/mcp", {
        token: caller.key,
        body: { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: callId, reason: "test" } },
        headers: { Accept: "application/json, text/event-stream", "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "2025-11-25" },
      });

    expect((await cancel(crypto.randomUUID())).status).toBe(202);
    const response = await call(`/v1/research/${id}`, { token: caller.key });
    expect((await response.json()) as { status: string }).toMatchObject({ status: "running" });

    expect((await cancel(transport.sessionId!)).status).toBe(202);
    await expectCancelledAndCharged(caller, id);
    // This client never aborted its call: it gets the cancelled job as an error result, and saw it coming.
    const { result } = await pending;
    expect(result?.isError).toBe(true);
    expect(result?.structuredContent).toMatchObject({ id, status: "cancelled" });
    expect(progress.at(-1)?.message).toBe("Status: cancelled");
    await client.close();
  });
});

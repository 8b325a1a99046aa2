import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { apiCaller, balanceOf, corpusLoaded, eventually, holdTasks, TERMINAL } from "../research/helpers";
import { mcpClient, textOf } from "./helpers";

let hold: ReturnType<typeof holdTasks> | null = null;
afterEach(async () => {
  await hold?.release();
  hold = null;
});

const QUESTION = "What ended the Nullification Crisis?";

describe("start_research", () => {
  it("returns the job's id while the job still runs; get_research then reads it to its result", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const { client } = await mcpClient(caller.key);
    // The job's fan-out is held: it cannot finish before start_research answers.
    hold = holdTasks();
    const started = (await client.callTool({ name: "start_research", arguments: { question: QUESTION, mode: "standard" } })) as CallToolResult;
    expect(started.isError ?? false).toBe(false);
    const job = started.structuredContent as { id: string; status: string; status_url: string; events_url: string };
    expect(job).toEqual({
      id: expect.any(String),
      status: "pending",
      status_url: `https://api.example.test/v1/research/${job.id}`,
      events_url: `https://api.example.test/v1/research/${job.id}/events`,
    });
    expect(textOf(started)).toContain(`Call get_research with id ${job.id}`);
    await eventually(() => hold!.heldFor(job.id).length > 0, "the job held mid-wave");
    const running = (await client.callTool({ name: "get_research", arguments: { id: job.id } })) as CallToolResult;
    expect(running.structuredContent).toMatchObject({ id: job.id, status: "running" });

    await hold.release();
    hold = null;
    const finished = await eventually(async () => {
      const result = (await client.callTool({ name: "get_research", arguments: { id: job.id } })) as CallToolResult;
      return TERMINAL.includes((result.structuredContent as { status: string }).status) && result;
    }, "the job finished");
    expect(finished.structuredContent).toMatchObject({ id: job.id, status: "succeeded", credits_charged: 60 });
    expect(await balanceOf(caller)).toBe(500 - 60);
    await client.close();
  });

  it("shares idempotency keys with deep_research: the same key and arguments follow the started job, paid once", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const { client } = await mcpClient(caller.key);
    const args = { question: QUESTION, mode: "lite", idempotency_key: `start-${crypto.randomUUID()}` };
    const started = (await client.callTool({ name: "start_research", arguments: args })) as CallToolResult;
    const { id } = started.structuredContent as { id: string };
    const followed = (await client.callTool({ name: "deep_research", arguments: args })) as CallToolResult;
    expect(followed.structuredContent).toMatchObject({ id, status: "succeeded", credits_charged: 15 });
    expect(await balanceOf(caller)).toBe(500 - 15);

    const refused = (await client.callTool({ name: "start_research", arguments: { ...args, mode: "standard" } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe("idempotency_key_reused: This Idempotency-Key was already used with a different request body.");
    await client.close();
  });

  it("refuses what POST /v1/research refuses, with its code and message, and starts nothing", async () => {
    const caller = await apiCaller();
    const { client } = await mcpClient(caller.key);
    const broke = (await client.callTool({ name: "start_research", arguments: { question: QUESTION, mode: "max", max_credits: 501 } })) as CallToolResult;
    expect(broke.isError).toBe(true);
    expect(textOf(broke)).toBe("insufficient_credits: This max job needs 501 credits; the balance is 500.");
    const empty = (await client.callTool({ name: "start_research", arguments: { question: "  " } })) as CallToolResult;
    expect(textOf(empty)).toBe("invalid_request: Invalid request: question: must not be empty");
    const listed = (await client.callTool({ name: "list_research", arguments: {} })) as CallToolResult;
    expect((listed.structuredContent as { jobs: unknown[] }).jobs).toEqual([]);
    await client.close();
  });
});

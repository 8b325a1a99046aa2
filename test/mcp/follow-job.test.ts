import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { loadConfig } from "../../src/env";
import { ApiError } from "../../src/lib/errors";
import { followJob } from "../../src/routes/mcp/follow-job";
import type { JobStreamEvent } from "../../src/routes/mcp/sse-reader";
import { json } from "../helpers";
import { apiCaller, corpusLoaded, eventually, holdTasks, jobStubOf, research } from "../research/helpers";

/** followJob: the job's own event stream, relayed once and in order, bounded by a deadline and the caller. */

const deps = { db: createDb(env.DB), config: loadConfig(env), env };
let hold: ReturnType<typeof holdTasks> | null = null;
afterEach(async () => {
  await hold?.release();
  hold = null;
});

async function heldJob() {
  await corpusLoaded();
  const caller = await apiCaller();
  hold = holdTasks();
  const response = await research(caller, { question: "What ended the Nullification Crisis?", mode: "standard" });
  expect(response.status).toBe(202);
  const { id } = (await json(response)) as { id: string };
  await eventually(() => hold!.heldFor(id).length > 0, "the first wave's tasks");
  return { caller, id };
}

const ids = (events: JobStreamEvent[]) => events.map((event) => event.id);

describe("followJob", () => {
  it("relays every event once, in order, through a broken stream (resumed after the last id), up to the result", async () => {
    const { caller, id } = await heldJob();
    const events: JobStreamEvent[] = [];
    const following = followJob({ deps, userId: caller.id, jobId: id, deadline: Date.now() + 30_000, stopped: () => false, onEvent: (event) => void events.push(event) });
    await eventually(() => events.some((event) => event.event === "progress"), "progress relayed");
    const seenBefore = events.length;
    // The job's object restarts mid-wave (as a deploy or a crash does it): its stream breaks.
    await runInDurableObject(jobStubOf(id), (_instance, state) => state.abort("simulated restart")).catch(() => {});
    await hold!.release();
    const outcome = await following;
    expect(outcome.kind).toBe("result");
    expect(outcome.kind === "result" && outcome.result).toMatchObject({ id, status: "succeeded" });
    expect(events.length).toBeGreaterThan(seenBefore);
    expect(ids(events)).toEqual([...new Set(ids(events))].sort((a, b) => a - b));
    expect(events.at(-1)!.event).toBe("result");
  });

  it("gives up at its deadline and leaves the job running", async () => {
    const { caller, id } = await heldJob();
    const outcome = await followJob({ deps, userId: caller.id, jobId: id, deadline: Date.now() + 300, stopped: () => false, onEvent: () => {} });
    expect(outcome).toEqual({ kind: "deadline" });
    expect(await jobStubOf(id).result()).toMatchObject({ status: "running" });
  });

  it("stops soon after its caller stops it", async () => {
    const { caller, id } = await heldJob();
    let stopped = false;
    setTimeout(() => (stopped = true), 100);
    const outcome = await followJob({ deps, userId: caller.id, jobId: id, deadline: Date.now() + 30_000, stopped: () => stopped, onEvent: () => {} });
    expect(outcome).toEqual({ kind: "stopped" });
  });

  it("does not follow another account's job", async () => {
    const { id } = await heldJob();
    const stranger = await apiCaller();
    const following = followJob({ deps, userId: stranger.id, jobId: id, deadline: Date.now() + 30_000, stopped: () => false, onEvent: () => {} });
    await expect(following).rejects.toBeInstanceOf(ApiError);
    await expect(following).rejects.toMatchObject({ code: "not_found" });
  });
});

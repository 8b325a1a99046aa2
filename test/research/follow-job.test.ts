import { createExecutionContext, createScheduledController, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { createDb } from "../../src/db/client";
import { loadConfig } from "../../src/env";
import { ApiError } from "../../src/lib/errors";
import { followJob, type JobEvent, JobEventDto } from "../../src/research/service";
import { dbRun } from "../helpers";
import { apiCaller, corpusLoaded, eventually, holdTasks, jobStubOf, submitHeldJob } from "./helpers";

/**
 * followJob: a job's events as typed objects inside the worker (what MCP's deep_research relays),
 * each once and in order, up to the result, and bounded by the caller's signal.
 */

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
  return { caller, id: await submitHeldJob(caller, hold) };
}

/** Follows in the background, collecting what is yielded; `done` resolves when following ends. */
function collect(userId: string, id: string, signal = new AbortController().signal) {
  const events: JobEvent[] = [];
  const done = (async () => {
    for await (const event of followJob(deps, userId, id, { signal })) events.push(event);
  })();
  return { events, done };
}

const ids = (events: JobEvent[]) => events.map((event) => event.id);

describe("followJob", () => {
  it("yields every event once, in order, through a broken call (asked again after the last id), up to the result", async () => {
    const { caller, id } = await heldJob();
    const { events, done } = collect(caller.id, id);
    await eventually(() => events.some((event) => event.event === "progress"), "progress relayed");
    const seenBefore = events.length;
    // The job's object restarts mid-wave (as a deploy or a crash does it): the call waiting on it breaks.
    await runInDurableObject(jobStubOf(id), (_instance, state) => state.abort("simulated restart")).catch(() => {});
    await hold!.release();
    await done;
    expect(events.at(-1)).toMatchObject({ event: "result", data: { id, status: "succeeded" } });
    expect(events.length).toBeGreaterThan(seenBefore);
    expect(ids(events)).toEqual([...new Set(ids(events))].sort((a, b) => a - b));
    // Objects, not bytes: each one is its event's schema.
    for (const event of events) expect(JobEventDto.safeParse(event).error).toBeUndefined();
  });

  it("gives up when its signal says the deadline passed, and leaves the job running", async () => {
    const { caller, id } = await heldJob();
    const { events, done } = collect(caller.id, id, AbortSignal.timeout(300));
    await done;
    expect(events.map((event) => event.event)).not.toContain("result");
    expect(await jobStubOf(id).result()).toMatchObject({ status: "running" });
  });

  it("stops soon after its caller stops it", async () => {
    const { caller, id } = await heldJob();
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 100);
    const { events, done } = collect(caller.id, id, stop.signal);
    await done;
    expect(events.map((event) => event.event)).not.toContain("result");
  });

  it("does not follow another account's job", async () => {
    const { id } = await heldJob();
    const stranger = await apiCaller();
    const following = followJob(deps, stranger.id, id, { signal: new AbortController().signal }).next();
    await expect(following).rejects.toBeInstanceOf(ApiError);
    await expect(following).rejects.toMatchObject({ code: "not_found" });
  });

  it("follows a job its object never received from its row: its status, then its result once the sweep settles it", async () => {
    const caller = await apiCaller();
    const id = crypto.randomUUID();
    const past = new Date(Date.now() - 10 * 60_000).toISOString();
    await dbRun(
      `insert into research_jobs (id, user_id, origin, status, mode, question, request_json, credits_reserved, credits_charged, cost_usd_micros, created_at, deadline_at)
       values (?, ?, 'api', 'pending', 'lite', 'Never started?', '{}', 15, 0, 0, ?, ?)`,
      id,
      caller.id,
      past,
      past,
    );
    const { events, done } = collect(caller.id, id);
    await eventually(() => events.length > 0, "the row's status");
    expect(events).toEqual([{ id: 1, event: "status", data: { status: "pending" } }]);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    await done;
    expect(events.map((event) => event.id)).toEqual([1, 2]);
    expect(events[1]).toMatchObject({ event: "result", data: { id, status: "failed", credits_charged: 0 } });
  });
});

import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { ResearchJob } from "../../src/research/job/job";
import { call, dbFirst, dbRun, expectError, expectLedgerConsistent, followPages, json, suspendUser } from "../helpers";
import {
  apiCaller,
  balanceOf,
  cancelledJob,
  corpusLoaded,
  eventsOf,
  eventually,
  holdStage,
  holdTasks,
  jobLedger,
  jobStubOf,
  openEvents,
  readSse,
  research,
  TERMINAL,
  waitForTerminal,
  submitHeldJob,
  expectSettledOnce,
} from "./helpers";

let hold: ReturnType<typeof holdTasks> | null = null;
afterEach(async () => {
  await hold?.release();
  hold = null;
});

async function startHeldJob(caller: Awaited<ReturnType<typeof apiCaller>>, question?: string) {
  hold = holdTasks();
  return submitHeldJob(caller, hold, question);
}

async function getJob(caller: { key: string }, id: string) {
  const response = await call(`/v1/research/${id}`, { token: caller.key });
  expect(response.status).toBe(200);
  return json(response);
}

describe("GET /v1/research/{id}", () => {
  it("is live while the job runs and final after", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const id = await startHeldJob(caller);
    const live = await getJob(caller, id);
    expect(live).toMatchObject({ id, status: "running", brief: null, completed_at: null, credits_charged: 0, error: null });
    await hold!.release();
    const done = await waitForTerminal(caller, id);
    expect(done.status).toBe("succeeded");
    expect(done.brief).toEqual(expect.any(String));
    expect(done.completed_at).toEqual(expect.any(String));
    expect(done.credits_charged).toBe(60);
    expect(await getJob(caller, id)).toEqual(done);
  });

  it("answers a finished job from its final row, without a call to its object (the same result)", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const response = await research(caller, { question: "What ended the Nullification Crisis?", mode: "lite" });
    expect(response.status).toBe(200);
    const finished = await json(response);
    await eventually(() => dbFirst("select 1 from research_jobs where id = ? and result_json is not null", finished.id), "the settled row");
    let objectCalls = 0;
    const original = ResearchJob.prototype.result;
    ResearchJob.prototype.result = async function (this: ResearchJob) {
      objectCalls += 1;
      return original.call(this);
    };
    try {
      expect(await getJob(caller, finished.id)).toEqual(finished);
      expect(objectCalls).toBe(0);
    } finally {
      ResearchJob.prototype.result = original;
    }
  });
});

describe("GET /v1/research", () => {
  it("lists the caller's jobs newest first, filters by status and pages", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const ids: string[] = [];
    for (const question of ["What was the Tariff of 1828?", "What ended the Nullification Crisis?", "What did the McKinley Tariff do?"]) {
      const response = await research(caller, { question, mode: "lite" });
      expect(response.status).toBe(200);
      ids.push((await json(response)).id);
    }
    const cancelled = await startHeldJob(caller);
    expect((await call(`/v1/research/${cancelled}`, { method: "DELETE", token: caller.key })).status).toBe(200);

    const all = await json(await call("/v1/research", { token: caller.key }));
    expect(all.map((row: { id: string }) => row.id)).toEqual([cancelled, ...ids.reverse()]);
    expect(all[1]).toMatchObject({ status: "succeeded", credits_charged: 15, cost_usd_micros: expect.any(Number), source_count: expect.any(Number) });

    const succeeded = await json(await call("/v1/research?status=succeeded", { token: caller.key }));
    expect(succeeded.map((row: { id: string }) => row.id)).toEqual(ids);
    const onlyCancelled = await json(await call("/v1/research?status=cancelled", { token: caller.key }));
    expect(onlyCancelled.map((row: { id: string }) => row.id)).toEqual([cancelled]);

    const page = await json(await call("/v1/research?limit=2&offset=1", { token: caller.key }));
    expect(page.map((row: { id: string }) => row.id)).toEqual(ids.slice(0, 2));
    expect((await followPages("/v1/research?limit=2", { token: caller.key })).map((row: { id: string }) => row.id)).toEqual(
      all.map((row: { id: string }) => row.id),
    );
    expect((await followPages("/v1/research?status=succeeded&limit=1", { token: caller.key })).map((row: { id: string }) => row.id)).toEqual(ids);

    await expectError(await call("/v1/research?status=done", { token: caller.key }), 400, "invalid_request");
    await expectError(await call("/v1/research?limit=0", { token: caller.key }), 400, "invalid_request");
    await expectError(await call("/v1/research?limit=101", { token: caller.key }), 400, "invalid_request");
    await expectError(await call("/v1/research?offset=-1", { token: caller.key }), 400, "invalid_request");
    await expectError(await call("/v1/research?limit=abc", { token: caller.key }), 400, "invalid_request");
  });
});

describe("DELETE /v1/research/{id}", () => {
  it("cancels a job mid-wave: charged for work spent, the rest released, subscribers told", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const id = await startHeldJob(caller);
    const stream = readSse(await openEvents(caller, id));

    const response = await call(`/v1/research/${id}`, { method: "DELETE", token: caller.key });
    expect(response.status).toBe(200);
    // The cancel's own answer is the result plus what the cancel did (cancel-outcome.test.ts).
    const answer = await json(response);
    expect(answer.cancel_outcome).toBe("cancelled");
    const cancelled = cancelledJob(answer);
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.credits_charged).toBeGreaterThanOrEqual(0);
    expect(cancelled.credits_charged).toBeLessThanOrEqual(60);
    expect(cancelled.credits_charged).toBe(Math.ceil(Math.round(cancelled.cost_usd * 1e6) / 1e4 - 1e-9));
    expect(cancelled.completed_at).toEqual(expect.any(String));

    const events = eventsOf(await stream);
    const names = events.map((event) => event.event);
    expect(names).toContain("status");
    expect(names.at(-1)).toBe("result");
    expect(events.find((event) => event.event === "status" && event.data.status === "cancelled")).toBeTruthy();
    expect(events.at(-1)!.data).toEqual(cancelled);

    expect(await balanceOf(caller)).toBe(500 - cancelled.credits_charged);
    const ledger = await jobLedger(caller.id, id);
    expect(ledger.map((entry) => entry.kind)).toEqual(["reservation", "release"]);
    expect(ledger[0]!.delta + ledger[1]!.delta).toBe(-cancelled.credits_charged);
    await expectLedgerConsistent(caller.id);

    // The D1 row says the same, and a late task answer changes nothing.
    const row = await dbFirst<{ status: string; credits_charged: number }>("select status, credits_charged from research_jobs where id = ?", id);
    expect(row).toEqual({ status: "cancelled", credits_charged: cancelled.credits_charged });
    await hold!.release();
    expect(await getJob(caller, id)).toEqual(cancelled);
    expect(await jobLedger(caller.id, id)).toHaveLength(2);
  });

  it("a job cancelled mid-wave returns a partial brief written only from the pages it had read (issue 30)", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    // Searches answer; reads are held, then all but the last of the first wave's (two here) are delivered.
    const letThrough = new Set<string>();
    hold = holdTasks((task) => task.key.startsWith("read:") && !letThrough.has(task.key));
    const submitted = await research(caller, { question: "What ended the Nullification Crisis?", mode: "standard" });
    const id = (await json(submitted)).id as string;
    const reads = await eventually(() => (hold!.heldFor(id).length >= 2 ? hold!.heldFor(id) : null), "the first wave's reads");
    const delivered = reads.slice(0, -1);
    for (const task of delivered) {
      letThrough.add(task.key);
      await jobStubOf(id).taskDone(task.key, task.outcome);
    }
    const readUrls = new Set(delivered.map((task) => JSON.parse(task.key.slice("read:".length)) as string));

    const cancelled = cancelledJob(await json(await call(`/v1/research/${id}`, { method: "DELETE", token: caller.key })));
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.partial).toBe(true);
    expect(cancelled.brief).toEqual(expect.any(String));
    expect(cancelled.sources.length).toBeGreaterThan(0);
    expect(cancelled.sources.every((source: { url: string }) => readUrls.has(source.url))).toBe(true);
    expect(cancelled.citations.length).toBeGreaterThan(0);
    expect(cancelled.citations.every((citation: { source: number }) => citation.source >= 0 && citation.source < cancelled.sources.length)).toBe(true);
    expect([...cancelled.brief.matchAll(/\[(\d+)\]/g)].every((match) => Number(match[1]) >= 1 && Number(match[1]) <= cancelled.sources.length)).toBe(true);
    expect(cancelled.answer).toBeNull();
    // Charged as before: the work done, nothing for writing the partial brief.
    expect(cancelled.credits_charged).toBe(Math.ceil(Math.round(cancelled.cost_usd * 1e6) / 1e4 - 1e-9));
    expect(await getJob(caller, id)).toEqual(cancelled);
  });

  it("returns a terminal job unchanged", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const done = await json(await research(caller, { question: "What was the Smoot-Hawley Tariff Act?", mode: "lite" }));
    expect(done.status).toBe("succeeded");
    const response = await call(`/v1/research/${done.id}`, { method: "DELETE", token: caller.key });
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ ...done, cancel_outcome: "already_finished", cancel_message: expect.any(String) });
    expect(await balanceOf(caller)).toBe(485);
    await expectLedgerConsistent(caller.id);
  });
});

/**
 * Issue 39: a cancel timed to the end of the research must not buy the brief at the metered price.
 * The run is held at a stage by state (holdStage), the cancel lands there, then the run goes on.
 */
describe("a cancel at the end of the research", () => {
  let stage: ReturnType<typeof holdStage> | null = null;
  afterEach(async () => {
    await stage?.release();
    stage = null;
  });

  /** Submits a standard job, holds it at `at`, sends DELETE and lets the run go on once the cancel is registered. */
  async function cancelAt(at: string) {
    await corpusLoaded();
    const caller = await apiCaller();
    stage = holdStage(at);
    const submitted = await research(caller, { question: "What ended the Nullification Crisis?", mode: "standard", async: true });
    const { id } = await json(submitted);
    await eventually(() => stage!.reached(id), `the run held at "${at}"`);
    const cancelling = call(`/v1/research/${id}`, { method: "DELETE", token: caller.key });
    await eventually(
      () => runInDurableObject(jobStubOf(id), (instance) => (instance as unknown as { record: { cancelRequested: boolean } }).record.cancelRequested),
      "the cancel registered",
    );
    await stage.release();
    const answer = await json(await cancelling);
    return { caller, id, answer, job: cancelledJob(answer) };
  }

  it("a cancel on the synthesizing event stops the writing: cancelled, its metered work, the pages read, no brief", async () => {
    const { caller, id, answer, job } = await cancelAt("synthesizing");
    expect(answer.cancel_outcome).toBe("cancelled");
    expect(job).toMatchObject({ status: "cancelled", brief: null, answer: null, citations: [], partial: true, error: null });
    // The pages it read (streamed while it ran) stay listed.
    expect(job.sources.length).toBeGreaterThan(0);
    expect(job.credits_charged).toBe(Math.ceil(Math.round(job.cost_usd * 1e6) / 1e4 - 1e-9));
    expect(job.credits_charged).toBeLessThan(60);
    expect(await getJob(caller, id)).toEqual(job);
    const ledger = await jobLedger(caller.id, id);
    expect(ledger[0]!.delta + ledger[1]!.delta).toBe(-job.credits_charged);
    await expectLedgerConsistent(caller.id);
  });

  it("a cancel that arrives once the engine has finished is too late: the job succeeds at its price, and the cancel says so", async () => {
    const { caller, id, answer, job } = await cancelAt("done");
    expect(answer.cancel_outcome).toBe("already_finished");
    expect(answer.cancel_message).toBe("The job succeeded before the cancel could stop it: it was charged 60 credits ($0.60).");
    expect(job).toMatchObject({ status: "succeeded", credits_charged: 60, partial: false });
    expect(job.brief).toEqual(expect.any(String));
    expect(await getJob(caller, id)).toEqual(job);
    expect(await balanceOf(caller)).toBe(440);
    await expectLedgerConsistent(caller.id);
  });
});

describe("eviction mid-job", () => {
  // evictDurableObject waits for in-flight events to drain and gives up after 30 s ("still has
  // active references") while the job's alarm is running the engine, so the instance is torn down
  // the way a runtime restart does it: ctx.abort() mid-wave, which kills the running alarm.
  it("resumes from stored state after the instance is torn down mid-wave, succeeds and settles exactly once", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const id = await startHeldJob(caller);
    await runInDurableObject(jobStubOf(id), (instance) => void ((instance as unknown as { marked: boolean }).marked = true));
    await runInDurableObject(jobStubOf(id), (_instance, state) => state.abort("simulated restart mid-wave")).catch(() => {});
    // A new instance, resuming from storage (its alarm resumes it at once, so its run may be under way).
    const fresh = await runInDurableObject(jobStubOf(id), (instance) => instance as unknown as { marked?: boolean; record: { status: string } });
    expect(fresh.record.status).toBe("running");
    expect(fresh.marked).toBeUndefined();
    await hold!.release();
    const done = await waitForTerminal(caller, id);
    expect(done.status).toBe("succeeded");
    expect(done.credits_charged).toBe(60);
    expect(done.sources.length).toBeGreaterThan(0);
    const ledger = await jobLedger(caller.id, id);
    expect(ledger.map((entry) => entry.kind)).toEqual(["reservation", "release"]);
    expect(ledger[0]!.delta).toBe(-60);
    expect(ledger[1]!.delta).toBe(0);
    expect(await balanceOf(caller)).toBe(440);
    await expectLedgerConsistent(caller.id);
    const row = await dbFirst<{ status: string; credits_charged: number }>("select status, credits_charged from research_jobs where id = ?", id);
    expect(row).toEqual({ status: "succeeded", credits_charged: 60 });
  });

  /**
   * The runtime dies mid-wave (`ctx.abort()`, as above) and the wave's queue messages die with it
   * (local queues live in memory): held answers that are then dropped. Nothing calls the job's
   * object afterwards; its alarm must bring it back, and the resumed run must send the lost tasks
   * again. The deadline (standard: minutes away) must play no part.
   */
  async function restartMidWave(caller: Awaited<ReturnType<typeof apiCaller>>) {
    const id = await startHeldJob(caller);
    const { deadline_at } = (await dbFirst<{ deadline_at: string }>("select deadline_at from research_jobs where id = ?", id))!;
    hold!.restore(); // later answers go through; the ones held so far are lost with the runtime
    await runInDurableObject(jobStubOf(id), (_instance, state) => state.abort("simulated restart mid-wave")).catch(() => {});
    expect(hold!.held.splice(0).length).toBeGreaterThan(0);
    return { id, deadlineAt: Date.parse(deadline_at) };
  }

  /** Records the job id of every alarm invocation until `restore()`. */
  function countAlarms() {
    const alarmsOf: string[] = [];
    const alarm = ResearchJob.prototype.alarm;
    ResearchJob.prototype.alarm = function (this: ResearchJob) {
      alarmsOf.push((this as unknown as { record: { spec: { id: string } } | null }).record?.spec.id ?? "");
      return alarm.call(this);
    };
    return { alarmsOf, restore: () => void (ResearchJob.prototype.alarm = alarm) };
  }

  it("a job whose runtime died mid-wave resumes by itself within seconds, sending the lost tasks again (nothing calls its object)", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const { alarmsOf, restore } = countAlarms();
    try {
      const restarted = await restartMidWave(caller);
      const id = restarted.id;
      const row = await eventually(
        () =>
          dbFirst<{ status: string; credits_charged: number }>(
            "select status, credits_charged from research_jobs where id = ? and status in ('succeeded', 'failed', 'cancelled')",
            id,
          ),
        "the resumed job's final row",
        20_000,
      );
      expect(row).toEqual({ status: "succeeded", credits_charged: 60 });
      expect(restarted.deadlineAt - Date.now()).toBeGreaterThan(60_000);
      await expectSettledOnce(caller, id);
      expect((await getJob(caller, id)).status).toBe("succeeded");
      // The run's alarm, then the one that resumed it after the restart; none left armed.
      expect(alarmsOf.filter((of) => of === id)).toHaveLength(2);
      expect(await runInDurableObject(jobStubOf(id), (_instance, state) => state.storage.getAlarm())).toBeNull();
    } finally {
      restore();
    }
  }, 30_000);

  it("a job whose runtime died mid-wave and is polled over GET finishes within seconds, long before its deadline", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const { id, deadlineAt } = await restartMidWave(caller);
    const done = await waitForTerminal(caller, id, 20_000);
    expect(done).toMatchObject({ status: "succeeded", credits_charged: 60 });
    expect(done.sources.length).toBeGreaterThan(0);
    expect(deadlineAt - Date.now()).toBeGreaterThan(60_000);
    await expectSettledOnce(caller, id);
  }, 30_000);

  it("an uninterrupted job takes one alarm invocation and leaves no alarm armed", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const { alarmsOf, restore } = countAlarms();
    try {
      const done = await json(await research(caller, { question: "What was the Tariff of Abominations?", mode: "lite" }));
      expect(done.status).toBe("succeeded");
      await eventually(() => dbFirst("select 1 from research_jobs where id = ? and result_json is not null", done.id), "the settled row");
      expect(await runInDurableObject(jobStubOf(done.id), (_instance, state) => state.storage.getAlarm())).toBeNull();
      expect(alarmsOf.filter((of) => of === done.id)).toHaveLength(1);
    } finally {
      restore();
    }
  });

  it("a terminal job survives evictDurableObject: its result and events come from storage", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const done = await json(await research(caller, { question: "What was the McKinley Tariff?", mode: "lite" }));
    expect(done.status).toBe("succeeded");
    await evictDurableObject(jobStubOf(done.id));
    expect(await getJob(caller, done.id)).toEqual(done);
    const events = eventsOf(await readSse(await openEvents(caller, done.id)));
    expect(events.at(-1)).toMatchObject({ event: "result", data: done });
    expect(await jobLedger(caller.id, done.id)).toHaveLength(2);
  });
});

describe("failure semantics", () => {
  it("fails typed output that cannot satisfy the schema: error set, nothing charged, all released", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const schema = { type: "object", required: ["code"], properties: { code: { type: "string", pattern: "^[A-Z]{3}-\\d{4}$" } } };
    const response = await research(caller, { question: "What was the Tariff of 1828?", mode: "lite", response_schema: schema });
    expect(response.status).toBe(200);
    const failed = await json(response);
    expect(failed).toMatchObject({ status: "failed", credits_charged: 0, typed: null });
    expect(failed.error).toBe("Typed output: no source supports the required field(s) code.");
    expect(await balanceOf(caller)).toBe(500);
    const ledger = await jobLedger(caller.id, failed.id);
    expect(ledger.map((entry) => [entry.kind, entry.delta])).toEqual([
      ["reservation", -15],
      ["release", 15],
    ]);
    await expectLedgerConsistent(caller.id);
    // Subscribers see the failure as an error event ({code, message}) before the result.
    const events = eventsOf(await readSse(await openEvents(caller, failed.id)));
    expect(events.slice(-2).map((event) => event.event)).toEqual(["error", "result"]);
    expect(events.at(-2)!.data).toEqual({ code: expect.any(String), message: failed.error });
    expect(events.at(-1)!.data).toEqual(failed);
  });
});

describe("the scheduled sweep", () => {
  async function runSweep() {
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
  }

  async function insertStuckJob(userId: string, reserve: boolean) {
    const id = crypto.randomUUID();
    const past = new Date(Date.now() - 10 * 60_000).toISOString();
    await dbRun(
      `insert into research_jobs (id, user_id, origin, status, mode, question, request_json, credits_reserved, credits_charged, cost_usd_micros, created_at, deadline_at)
       values (?, ?, 'api', 'pending', 'standard', 'A stuck job?', '{}', 60, 0, 0, ?, ?)`,
      id,
      userId,
      past,
      past,
    );
    if (reserve) {
      const { applyLedgerChange } = await import("../../src/services/ledger");
      const { createDb } = await import("../../src/db/client");
      const result = await applyLedgerChange(createDb(env.DB), userId, { kind: "reservation", delta: -60, idempotencyKey: `reservation:${id}`, relatedId: id });
      expect(result.status).toBe("applied");
    }
    return id;
  }

  it("settles a job stuck past its deadline whose object never started: failed, reservation released", async () => {
    const caller = await apiCaller();
    const id = await insertStuckJob(caller.id, true);
    expect(await balanceOf(caller)).toBe(440);
    await runSweep();
    const row = await eventually(
      () =>
        dbFirst<{ status: string; credits_charged: number; error: string }>(
          "select status, credits_charged, error from research_jobs where id = ? and status = 'failed'",
          id,
        ),
      "the swept row",
    );
    expect(row.credits_charged).toBe(0);
    expect(row.error).toEqual(expect.any(String));
    expect(await balanceOf(caller)).toBe(500);
    expect((await jobLedger(caller.id, id)).map((entry) => [entry.kind, entry.delta])).toEqual([
      ["reservation", -60],
      ["release", 60],
    ]);
    await expectLedgerConsistent(caller.id);
    const got = await getJob(caller, id);
    expect(got).toMatchObject({ id, status: "failed", credits_charged: 0 });

    // A second sweep changes nothing.
    await runSweep();
    expect(await jobLedger(caller.id, id)).toHaveLength(2);
  });

  it("settles a job that never reserved without releasing credits it never took", async () => {
    const caller = await apiCaller();
    const id = await insertStuckJob(caller.id, false);
    await runSweep();
    await eventually(() => dbFirst("select 1 from research_jobs where id = ? and status = 'failed'", id), "the swept row");
    expect(await balanceOf(caller)).toBe(500);
    expect(await jobLedger(caller.id, id)).toEqual([]);
    await expectLedgerConsistent(caller.id);
  });

  it("leaves running jobs within their deadline alone", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const id = await startHeldJob(caller);
    await runSweep();
    expect((await getJob(caller, id)).status).toBe("running");
    await hold!.release();
    expect((await waitForTerminal(caller, id)).status).toBe("succeeded");
    expect(TERMINAL).toContain("succeeded");
  });
});

describe("a job settled without its object (swept before it started)", () => {
  it("still answers GET, DELETE and /events from its final row", async () => {
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
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const failed = await eventually(async () => {
      const job = await getJob(caller, id);
      return job.status === "failed" ? job : null;
    }, "the swept job");
    expect(failed).toMatchObject({ id, status: "failed", credits_charged: 0, error: expect.any(String) });

    const cancel = await call(`/v1/research/${id}`, { method: "DELETE", token: caller.key });
    expect(cancel.status).toBe(200);
    expect(await json(cancel)).toEqual({ ...failed, cancel_outcome: "already_finished", cancel_message: expect.any(String) });

    const response = await openEvents(caller, id);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("X-Request-Id")).toBeTruthy();
    const events = eventsOf(await readSse(response));
    expect(events.at(-1)).toMatchObject({ event: "result", data: failed });
  });
});

describe("the wall-clock deadline", () => {
  it("finishes with what was gathered when the fan-out runs out of time", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    // Wave 1 is answered; every later search hangs until the gathering deadline (25 s - 20 s reserve).
    let readAnswered = false;
    hold = holdTasks((task) => {
      if (task.key.startsWith("read:")) readAnswered = true;
      return task.key.startsWith("search:") && readAnswered;
    });
    const response = await research(caller, { question: "What ended the Nullification Crisis?", mode: "standard", max_wallclock_secs: 25, async: true });
    expect(response.status).toBe(202);
    const { id } = await json(response);
    const done = await waitForTerminal(caller, id, 25_000);
    expect(hold.heldFor(id).length).toBeGreaterThan(0);
    expect(done.status).toBe("succeeded");
    expect(done.sources.length).toBeGreaterThan(0);
    expect(done.credits_charged).toBe(60);
    expect(await balanceOf(caller)).toBe(440);
    await expectLedgerConsistent(caller.id);
  }, 30_000);

  it("fails and refunds when nothing was gathered by the deadline", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const letThrough = new Set<string>();
    hold = holdTasks((task) => task.key.startsWith("read:") && !letThrough.has(task.key));
    const response = await research(caller, { question: "What ended the Nullification Crisis?", mode: "lite", max_wallclock_secs: 14, async: true });
    expect(response.status).toBe(202);
    const { id } = await json(response);
    const failed = await waitForTerminal(caller, id, 25_000);
    expect(failed).toMatchObject({ status: "failed", credits_charged: 0, error: expect.any(String) });
    expect(await balanceOf(caller)).toBe(500);
    expect((await jobLedger(caller.id, id)).map((e) => [e.kind, e.delta])).toEqual([
      ["reservation", -15],
      ["release", 15],
    ]);
    await expectLedgerConsistent(caller.id);
  }, 30_000);
});

describe("cancel edge cases", () => {
  it("cancels a job still pending (its run not started): nothing charged, everything released", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const { ResearchJob } = await import("../../src/research/job/job");
    const alarm = ResearchJob.prototype.alarm;
    ResearchJob.prototype.alarm = async () => {}; // the run never starts
    try {
      const response = await research(caller, { question: "What ended the Nullification Crisis?" });
      expect(response.status).toBe(202);
      const { id } = await json(response);
      expect((await getJob(caller, id)).status).toBe("pending");
      const cancelled = cancelledJob(await json(await call(`/v1/research/${id}`, { method: "DELETE", token: caller.key })));
      expect(cancelled).toMatchObject({ id, status: "cancelled", credits_charged: 0, cost_usd: 0 });
      expect(await balanceOf(caller)).toBe(500);
      expect((await jobLedger(caller.id, id)).map((e) => [e.kind, e.delta])).toEqual([
        ["reservation", -60],
        ["release", 60],
      ]);
      ResearchJob.prototype.alarm = alarm;
      await runInDurableObject(jobStubOf(id), (instance) => (instance as unknown as { alarm(): Promise<void> }).alarm());
      expect(await getJob(caller, id)).toEqual(cancelled);
      expect(await jobLedger(caller.id, id)).toHaveLength(2);
      await expectLedgerConsistent(caller.id);
    } finally {
      ResearchJob.prototype.alarm = alarm;
    }
  });

  it("a cancel that arrives while the job synthesizes stops it: cancelled, charged only the work spent", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const { ResearchJob } = await import("../../src/research/job/job");
    type Progress = { stage: string };
    const jobProto = ResearchJob.prototype as unknown as { onProgress(progress: Progress): Promise<void> };
    const onProgress = jobProto.onProgress;
    let reached!: () => void;
    const atSynthesis = new Promise<void>((resolve) => (reached = resolve));
    let letGo!: () => void;
    const gate = new Promise<void>((resolve) => (letGo = resolve));
    // The run pauses as it enters synthesis: the last step, after every search and read.
    jobProto.onProgress = async function (this: unknown, progress: Progress) {
      await onProgress.call(this, progress);
      if (progress.stage === "synthesizing") {
        reached();
        await gate;
      }
    };
    try {
      const response = await research(caller, { question: "What ended the Nullification Crisis?", mode: "lite", async: true });
      const { id } = await json(response);
      await atSynthesis;
      expect((await json(await call(`/v1/research/${id}`, { token: caller.key }))).status).toBe("running");
      const cancelling = call(`/v1/research/${id}`, { method: "DELETE", token: caller.key });
      await eventually(
        () => runInDurableObject(jobStubOf(id), (instance) => (instance as unknown as { record: { cancelRequested: boolean } }).record.cancelRequested || null),
        "the cancel to be recorded",
      );
      letGo();
      const cancelled = cancelledJob(await json(await cancelling));
      expect(cancelled).toMatchObject({ id, status: "cancelled" });
      // Searches and reads were spent, so something is charged, never more than the lite price.
      expect(cancelled.credits_charged).toBeGreaterThan(0);
      expect(cancelled.credits_charged).toBeLessThanOrEqual(15);
      expect(cancelled.credits_charged).toBe(Math.ceil(Math.round(cancelled.cost_usd * 1e6) / 1e4 - 1e-9));
      expect(await getJob(caller, id)).toEqual(cancelled);
      expect(await balanceOf(caller)).toBe(500 - cancelled.credits_charged);
      expect((await jobLedger(caller.id, id)).map((e) => e.kind)).toEqual(["reservation", "release"]);
      await expectLedgerConsistent(caller.id);
    } finally {
      jobProto.onProgress = onProgress;
      letGo?.();
    }
  });

  it("two concurrent cancels settle once", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const id = await startHeldJob(caller);
    const [a, b] = await Promise.all([
      call(`/v1/research/${id}`, { method: "DELETE", token: caller.key }),
      call(`/v1/research/${id}`, { method: "DELETE", token: caller.key }),
    ]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const [ra, rb] = [await json(a), await json(b)];
    expect(ra.status).toBe("cancelled");
    expect(cancelledJob(rb)).toEqual(cancelledJob(ra));
    // The first to reach the job stopped it; the other either waited with it or found it cancelled.
    expect([ra.cancel_outcome, rb.cancel_outcome]).toContain("cancelled");
    expect((await jobLedger(caller.id, id)).map((e) => e.kind)).toEqual(["reservation", "release"]);
    expect(await balanceOf(caller)).toBe(500 - ra.credits_charged);
    await expectLedgerConsistent(caller.id);
  });
});

describe("suspension", () => {
  it("a job already running when its owner is suspended still finishes and settles", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const id = await startHeldJob(caller);
    await suspendUser(caller.id);
    await expectError(await call(`/v1/research/${id}`, { token: caller.key }), 403, "account_suspended");
    await hold!.release();
    await eventually(() => dbFirst("select 1 from research_jobs where id = ? and status = 'succeeded'", id), "the job's final row");
    expect((await jobLedger(caller.id, id)).map((e) => e.kind)).toEqual(["reservation", "release"]);
    await expectLedgerConsistent(caller.id);
  });
});

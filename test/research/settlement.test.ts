import { runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import { SETTLE_ATTEMPTS_IN_PLACE } from "../../src/research/job/deadlines";
import { call, json } from "../helpers";
import {
  apiCaller,
  corpusLoaded,
  eventsOf,
  eventually,
  holdTasks,
  jobLedger,
  jobStubOf,
  openEvents,
  readSse,
  submitHeldJob,
  expectSettledOnce,
} from "./helpers";

/**
 * A job's result says what it charged; no read may show it while the ledger still holds the
 * reservation. D1 is made to fail (or hang) for the job's object alone, on the ledger's queries
 * only, so the run itself goes through and only its settlement meets the outage.
 */

/** `hits` counts the ledger queries met while the fault was on; `until` turns it off after that many. */
type Fault = { mode: "fail" | "hang" | null; hits: number; until?: number };
type JobInstance = { env: Env; settling: Promise<void> | null; record: { status: string; settled: boolean } };

let hold: ReturnType<typeof holdTasks> | null = null;
afterEach(async () => {
  await hold?.release();
  hold = null;
});

/** The binding, except that a query on the ledger fails or never answers while `fault.mode` says so. */
function ledgerOutage(real: D1Database, fault: Fault): D1Database {
  const never = () => new Promise<never>(() => {});
  return new Proxy(real, {
    get(target, property) {
      if (property !== "prepare") {
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      }
      return (sql: string) => {
        const mode = fault.mode;
        if (!mode || !sql.includes("ledger_entries")) return target.prepare(sql);
        fault.hits++;
        if (fault.hits === fault.until) fault.mode = null;
        if (mode === "fail") throw new Error("D1_ERROR: simulated outage");
        const hung = { bind: () => hung, all: never, raw: never, first: never, run: never };
        return hung;
      };
    },
  });
}

/** A standard job held mid-wave whose object sees the ledger through `ledgerOutage`; then released. */
async function jobMeetingAnOutage(mode: Fault["mode"], until?: number) {
  await corpusLoaded();
  const caller = await apiCaller();
  hold = holdTasks();
  const id = await submitHeldJob(caller, hold);
  const fault: Fault = { mode, hits: 0, until };
  await runInDurableObject(jobStubOf(id), (instance) => {
    const job = instance as unknown as JobInstance;
    job.env = { ...job.env, DB: ledgerOutage(job.env.DB, fault) };
  });
  await hold.release();
  return { caller, id, fault };
}

async function expectSettledAndAnnouncedOnce(caller: Awaited<ReturnType<typeof apiCaller>>, id: string) {
  // Read at once: the read itself settled the job.
  await expectSettledOnce(caller, id);
  const events = eventsOf(await readSse(await openEvents(caller, id)));
  expect(events.filter((frame) => frame.event === "result")).toHaveLength(1);
  expect(events.filter((frame) => frame.event === "status").at(-1)?.data).toEqual({ status: "succeeded" });
}

describe("settlement that meets a D1 outage", () => {
  it("a settlement that fails once is tried again at once: settled before the job ends, no alarm left to retry it", async () => {
    const { id, fault } = await jobMeetingAnOutage("fail", 1);
    // Read from inside the object, which settles nothing by itself (every read over HTTP would).
    const ended = await eventually(
      () =>
        runInDurableObject(jobStubOf(id), async (instance, state) => {
          const job = instance as unknown as JobInstance;
          if (job.settling !== null || job.record.status !== "succeeded") return null;
          return { settled: job.record.settled, alarm: await state.storage.getAlarm() };
        }),
      "the job ended",
    );
    expect(fault.hits).toBe(1); // the one failed attempt
    expect(ended).toEqual({ settled: true, alarm: null });
  });

  it("a job whose settlement failed at finish is settled by the next read, before the read shows its result", async () => {
    const { caller, id, fault } = await jobMeetingAnOutage("fail");
    await eventually(() => fault.hits >= SETTLE_ATTEMPTS_IN_PLACE, "every attempt in place failing");
    await eventually(
      () => runInDurableObject(jobStubOf(id), (instance) => (instance as unknown as JobInstance).settling === null),
      "the finish giving up to its alarm",
    );
    expect(await jobLedger(caller.id, id)).toHaveLength(1); // only the reservation: not settled yet
    fault.mode = null; // D1 is back
    const response = await call(`/v1/research/${id}`, { token: caller.key });
    expect(response.status).toBe(200);
    const job = await json(response);
    expect(job).toMatchObject({ status: "succeeded", credits_charged: 60 });
    await expectSettledAndAnnouncedOnce(caller, id);
  });

  it("a job whose instance restarted between its terminal record and its settlement is settled and announced by the next read", async () => {
    const { caller, id, fault } = await jobMeetingAnOutage("hang");
    await eventually(() => fault.hits > 0, "the settlement under way");
    const stored = await runInDurableObject(jobStubOf(id), (instance) => ({ ...(instance as unknown as JobInstance).record }));
    expect(stored).toMatchObject({ status: "succeeded", settled: false });
    await runInDurableObject(jobStubOf(id), (_instance, state) => state.abort("simulated restart mid-settlement")).catch(() => {});
    // The new instance reads the plain binding: D1 answers again.
    const response = await call(`/v1/research/${id}`, { token: caller.key });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({ status: "succeeded", credits_charged: 60 });
    await expectSettledAndAnnouncedOnce(caller, id);
  });
});

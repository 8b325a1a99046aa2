import { expect } from "vitest";
import { adminUser, call, createKey, json, signupUser, type TestUser } from "../helpers";

export interface Doc {
  url: string;
  title: string;
  text: string;
  domain?: string;
}

/** A small, real corpus on two domains: enough for the engine to find, read and cite. */
export const CORPUS: Doc[] = [
  {
    url: "https://history.example.org/tariff-of-1828",
    title: "The Tariff of 1828",
    text:
      "The Tariff of 1828 was a protective tariff passed by the Congress of the United States. Its opponents in the South called it the Tariff of Abominations. " +
      "It raised duties on imported manufactured goods to protect northern industry. South Carolina argued the tariff was unconstitutional and threatened nullification. " +
      "John C. Calhoun anonymously wrote the South Carolina Exposition and Protest against the tariff.",
  },
  {
    url: "https://history.example.org/nullification-crisis",
    title: "Nullification Crisis",
    text:
      "The Nullification Crisis was a confrontation in 1832 and 1833 between South Carolina and the federal government. " +
      "South Carolina declared the federal tariffs of 1828 and 1832 null and void within the state. President Andrew Jackson threatened to use force. " +
      "The Compromise Tariff of 1833, proposed by Henry Clay, gradually lowered the rates and ended the crisis.",
  },
  {
    url: "https://econ.example.com/smoot-hawley",
    title: "Smoot-Hawley Tariff Act",
    text:
      "The Smoot-Hawley Tariff Act of 1930 raised United States tariffs on over 20,000 imported goods. " +
      "Economists argue that it worsened the Great Depression by provoking retaliatory tariffs from trading partners. " +
      "World trade fell by roughly two thirds between 1929 and 1934.",
  },
  {
    url: "https://econ.example.com/mckinley-tariff",
    title: "McKinley Tariff",
    text:
      "The McKinley Tariff of 1890 raised the average duty on imports to almost fifty percent. It was authored by William McKinley, then a congressman from Ohio. " +
      "The tariff was unpopular with consumers and contributed to Republican losses in the 1890 elections.",
  },
];

let loaded = false;
/** Loads CORPUS through the admin endpoint once per runtime (test files share its database). */
export async function ensureCorpus(): Promise<TestUser> {
  const admin = await adminUser();
  if (!loaded) {
    const response = await call("/api/admin/corpus", { token: admin.accessToken, body: { documents: CORPUS } });
    expect(response.status).toBe(200);
    loaded = true;
  }
  return admin;
}

export interface ApiCaller extends TestUser {
  key: string;
}

export async function apiCaller(): Promise<ApiCaller> {
  const user = await signupUser();
  const key = await createKey(user);
  return { ...user, key: key.plaintext };
}

export async function research(caller: ApiCaller, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return call("/v1/research", { token: caller.key, body, headers });
}

/** Polls GET /v1/research/{id} until the job is terminal. */
export async function waitForTerminal(caller: ApiCaller, id: string, timeoutMs = 30_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await call(`/v1/research/${id}`, { token: caller.key });
    expect(response.status).toBe(200);
    const body = await json(response);
    if (["succeeded", "failed", "cancelled"].includes(body.status)) return body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${id} not terminal after ${timeoutMs} ms`);
}

/** A cancel's answer less what the cancel did (`cancel_outcome`, `cancel_message`): the job's ResearchResult. */
export function cancelledJob(answer: any): any {
  const { cancel_outcome: _, cancel_message: __, ...job } = answer;
  return job;
}

/**
 * A result as delivered (webhook body, SSE `result` event) carries the short answer: the key is
 * there, null or an answer whose citations are indexes of its own sources.
 */
export function expectShortAnswerIn(result: any): void {
  expect(result).toHaveProperty("answer");
  if (result.answer === null) return;
  expect(result.answer).toEqual({ text: expect.any(String), confidence: expect.stringMatching(/^(high|medium|low)$/), citations: expect.any(Array) });
  for (const index of result.answer.citations) expect(index).toBeLessThan(result.sources.length);
}

// ---------------------------------------------------------------------------------------------
// Jobs-layer tests (issue 5 item 8).

import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { ResearchJob } from "../../src/research/job/job";
import { jobObject } from "../../src/research/job/job-object";
import type { TaskOutcome } from "../../src/research/tasks/queued-fan-out";
import { createDb } from "../../src/db/client";
import { applyLedgerChange } from "../../src/services/ledger";
import { dbAll, dbFirst, expectLedgerConsistent } from "../helpers";

export const TERMINAL = ["succeeded", "failed", "cancelled"];

export function jobStubOf(id: string) {
  return jobObject(env, id);
}

/** Polls `check` until it returns a truthy value (a generous ceiling, never a timed assertion). */
export async function eventually<T>(
  check: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  what = "condition",
  ceilingMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + ceilingMs;
  for (;;) {
    const value = await check();
    if (value) return value as T;
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${ceilingMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The caller's balance through GET /v1/credits. */
export async function balanceOf(caller: ApiCaller): Promise<number> {
  const response = await call("/v1/credits", { token: caller.key });
  expect(response.status).toBe(200);
  return (await json(response)).credits;
}

/** Lowers the balance to `credits` through the ledger (an admin adjustment), keeping the ledger consistent. */
export async function setBalance(userId: string, credits: number): Promise<void> {
  const row = await dbFirst<{ credits: number }>("select credits from users where id = ?", userId);
  const result = await applyLedgerChange(createDb(env.DB), userId, {
    kind: "admin_adjustment",
    delta: credits - row!.credits,
    idempotencyKey: `test-balance:${crypto.randomUUID()}`,
    note: "test setup",
  } as never);
  expect(result.status).toBe("applied");
}

/** The ledger entries of one job (reservation, release, overage). */
export function jobLedger(userId: string, jobId: string) {
  return dbAll<{ kind: string; delta: number; idempotency_key: string }>(
    "select kind, delta, idempotency_key from ledger_entries where user_id = ? and related_id = ? order by seq",
    userId,
    jobId,
  );
}

export interface HeldTask {
  jobId: string;
  key: string;
  outcome: TaskOutcome;
}

/**
 * Holds every fan-out answer the queue consumer reports to a job (ResearchJob.taskDone), so a
 * test can act while a job is mid-wave. `release()` restores the method and delivers what was held
 * through the job's stub (so an evicted job's new instance receives it).
 */
export function holdTasks(shouldHold: (task: HeldTask) => boolean = () => true) {
  const original = ResearchJob.prototype.taskDone;
  const held: HeldTask[] = [];
  ResearchJob.prototype.taskDone = async function (this: ResearchJob, key: string, outcome: TaskOutcome) {
    const jobId = (this as unknown as { record: { spec: { id: string } } | null }).record?.spec.id;
    if (!jobId || !shouldHold({ jobId, key, outcome })) return original.call(this, key, outcome);
    held.push({ jobId, key, outcome });
  };
  let restored = false;
  const restore = () => {
    if (!restored) ResearchJob.prototype.taskDone = original;
    restored = true;
  };
  return {
    held,
    restore,
    heldFor: (jobId: string) => held.filter((task) => task.jobId === jobId),
    async release() {
      restore();
      const tasks = held.splice(0);
      for (const task of tasks) await jobStubOf(task.jobId).taskDone(task.key, task.outcome);
    },
  };
}

/** A standard job submitted while `hold` holds the tasks: answered 202, its first wave's tasks held. */
export async function submitHeldJob(caller: ApiCaller, hold: ReturnType<typeof holdTasks>, question = "What ended the Nullification Crisis?"): Promise<string> {
  const response = await research(caller, { question, mode: "standard" });
  expect(response.status).toBe(202);
  const { id } = (await json(response)) as { id: string };
  await eventually(() => hold.heldFor(id).length > 0, "the first wave's tasks");
  return id;
}

/** A standard job (60 reserved, 500 signup credits) settled exactly once at its price: nothing released, 440 left, the ledger consistent. */
export async function expectSettledOnce(caller: ApiCaller, id: string): Promise<void> {
  expect((await jobLedger(caller.id, id)).map((entry) => [entry.kind, entry.delta])).toEqual([
    ["reservation", -60],
    ["release", 0],
  ]);
  expect(await balanceOf(caller)).toBe(440);
  await expectLedgerConsistent(caller.id);
}

/**
 * Holds every job's run at its progress report of `stage` (the engine awaits it) until
 * `release()`: the engine is then exactly at that point, by state, whatever the machine's speed.
 * The hold is resolved inside the job's object (a promise made there cannot be settled from the
 * test's context), so `reached` and `release` go through runInDurableObject.
 */
export function holdStage(stage: string) {
  type Held = { heldAt?: () => void };
  const prototype = ResearchJob.prototype as unknown as { onProgress(progress: { stage: string }): Promise<void> };
  const original = prototype.onProgress;
  const jobs = new Set<string>();
  let released = false;
  prototype.onProgress = async function (this: ResearchJob, progress: { stage: string }) {
    await original.call(this, progress);
    const jobId = (this as unknown as { record: { spec: { id: string } } | null }).record?.spec.id;
    if (released || !jobId || progress.stage !== stage) return;
    jobs.add(jobId);
    await new Promise<void>((resolve) => ((this as unknown as Held).heldAt = resolve));
  };
  return {
    reached: (jobId: string) => runInDurableObject(jobStubOf(jobId), (instance) => (instance as unknown as Held).heldAt !== undefined),
    /** The job's object has recorded a cancel (held by state: a cancel in flight may take any time to arrive). */
    cancelRecorded: (jobId: string) =>
      runInDurableObject(
        jobStubOf(jobId),
        (instance) => (instance as unknown as { record: { cancelRequested: boolean } | null }).record?.cancelRequested === true,
      ),
    async release() {
      if (released) return;
      released = true;
      prototype.onProgress = original;
      for (const jobId of jobs)
        await runInDurableObject(jobStubOf(jobId), (instance) => {
          const held = instance as unknown as Held;
          const resolve = held.heldAt;
          held.heldAt = undefined;
          resolve?.();
        });
    },
  };
}

export interface SseFrame {
  id?: number;
  event?: string;
  data?: any;
  comments: string[];
}

function parseFrame(raw: string): SseFrame {
  const frame: SseFrame = { comments: [] };
  const data: string[] = [];
  for (const line of raw.split("\n")) {
    if (line.startsWith(":")) frame.comments.push(line.slice(1).trim());
    else if (line.startsWith("id:")) frame.id = Number(line.slice(3).trim());
    else if (line.startsWith("event:")) frame.event = line.slice(6).trim();
    else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
  }
  if (data.length > 0) frame.data = JSON.parse(data.join("\n"));
  return frame;
}

/**
 * Reads an SSE response frame by frame until the stream ends or `stop(frame)` is true (then the
 * connection is dropped). A generous ceiling turns a hung stream into an error, not a hung test.
 */
export async function readSse(response: Response, stop?: (frame: SseFrame, all: SseFrame[]) => boolean, ceilingMs = 15_000): Promise<SseFrame[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const frames: SseFrame[] = [];
  let buffer = "";
  const deadline = Date.now() + ceilingMs;
  try {
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`SSE stream still open after ${ceilingMs} ms`);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const chunk = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`SSE stream still open after ${ceilingMs} ms`)), remaining))),
      ]).finally(() => clearTimeout(timer));
      if (chunk.done) return frames;
      buffer += decoder.decode(chunk.value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const frame = parseFrame(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        frames.push(frame);
        if (stop?.(frame, frames)) return frames;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** Only the named events of a stream. */
export const eventsOf = (frames: SseFrame[]) => frames.filter((frame) => frame.event !== undefined);

export function openEvents(caller: ApiCaller, id: string, headers: Record<string, string> = {}) {
  return call(`/v1/research/${id}/events`, { token: caller.key, headers });
}

/** HMAC-SHA256 hex of `body` with `secret`, as a receiver computes it. */
export async function hmacHex(secret: string, body: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(body)));
  return [...mac].map((b) => b.toString(16).padStart(2, "0")).join("");
}

let corpusOnce: Promise<TestUser> | null = null;
/** ensureCorpus() once per test file: the admin login behind it is rate limited per email. */
export function corpusLoaded(): Promise<TestUser> {
  corpusOnce ??= ensureCorpus();
  return corpusOnce;
}

/**
 * getQueueResult() reports which messages were retried but not their delay: this records the
 * `delaySeconds` each message of a createMessageBatch() batch was retried with, by message id.
 */
export function recordRetryDelays(batch: MessageBatch<unknown>): Map<string, number | undefined> {
  const delays = new Map<string, number | undefined>();
  for (const message of batch.messages) {
    const retry = message.retry;
    Object.defineProperty(message, "retry", {
      value(this: Message<unknown>, options?: QueueRetryOptions) {
        delays.set(message.id, options?.delaySeconds);
        return retry.call(message, options);
      },
    });
  }
  return delays;
}

const loadedDocs = new Map<readonly Doc[], Promise<void>>();
/** A test file's own documents, loaded once per runtime through the admin endpoint, as an operator loads them. */
export function docsLoaded(documents: readonly Doc[]): Promise<void> {
  let loading = loadedDocs.get(documents);
  if (!loading) {
    loading = (async () => {
      const admin = await adminUser();
      const response = await call("/api/admin/corpus", { token: admin.accessToken, body: { documents } });
      expect(response.status).toBe(200);
    })();
    loadedDocs.set(documents, loading);
  }
  return loading;
}

import { createExecutionContext, createMessageBatch, getQueueResult, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import worker from "../../src/index";
import type { Env } from "../../src/env";
import { QueuedTaskRunner, type TaskMessage } from "../../src/research/tasks/queued-fan-out";
import { ResearchJob } from "../../src/research/job/job";
import { consumeTaskBatch, MAX_TASK_ATTEMPTS } from "../../src/research/job/task-consumer";
import { expectLedgerConsistent, json } from "../helpers";
import { apiCaller, balanceOf, corpusLoaded, eventually, holdTasks, jobLedger, jobStubOf, recordRetryDelays, research, waitForTerminal } from "./helpers";

const BRAVE = "https://api.search.brave.com/res/v1/web/search";
let braveStatus = 200;
function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, resolve: () => open() };
}
/** A search whose query says "slow" answers only once this resolves. */
let slowSearch = gate();
let braveCalls = 0;
const server = setupServer(
  http.get(BRAVE, async ({ request }) => {
    braveCalls += 1;
    if (new URL(request.url).searchParams.get("q")?.includes("slow")) await slowSearch.promise;
    if (braveStatus !== 200) return new HttpResponse("upstream trouble", { status: braveStatus });
    return HttpResponse.json({ web: { results: [{ url: "https://news.example.net/a", title: "A", description: "About A" }] } });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  braveStatus = 200;
  braveCalls = 0;
});
afterAll(() => server.close());

/** The same bindings with a web search provider configured (the tests' default is the local corpus). */
const braveEnv = { ...env, SEARCH_PROVIDER: "brave", BRAVE_API_KEY: "test-brave-key" } as unknown as Env;

function searchMessage(jobId: string, attempts: number) {
  const body: TaskMessage = { jobId, key: `search:${crypto.randomUUID()}`, kind: "search", payload: { query: "tariffs", limit: 5 } };
  return { id: `task-${attempts}`, timestamp: new Date(), attempts, body };
}

async function consume(messages: ReturnType<typeof searchMessage>[]) {
  const batch = createMessageBatch("research-tasks", messages);
  const delays = recordRetryDelays(batch);
  const ctx = createExecutionContext();
  await consumeTaskBatch(batch as MessageBatch<TaskMessage>, braveEnv);
  await waitOnExecutionContext(ctx);
  const result = await getQueueResult(batch, ctx);
  return { ...result, delays };
}

describe("research-tasks consumer", () => {
  it("reports each job's answers as soon as its own tasks finish, not after the whole batch", async () => {
    slowSearch = gate();
    const reported: string[] = [];
    const original = ResearchJob.prototype.tasksDone;
    ResearchJob.prototype.tasksDone = async function (this: ResearchJob, answers) {
      // Only this test's two tasks: other files' jobs (the runtime is shared) report through the same prototype.
      reported.push(...answers.map((answer) => answer.key).filter((key) => key === "search:quick" || key === "search:slow"));
      return original.call(this, answers);
    };
    try {
      const quick = {
        id: "quick",
        timestamp: new Date(),
        attempts: 1,
        body: { jobId: crypto.randomUUID(), key: "search:quick", kind: "search", payload: { query: "tariffs", limit: 5 } },
      };
      const slow = {
        id: "slow",
        timestamp: new Date(),
        attempts: 1,
        body: { jobId: crypto.randomUUID(), key: "search:slow", kind: "search", payload: { query: "slow tariffs", limit: 5 } },
      };
      const consumed = consume([quick, slow] as ReturnType<typeof searchMessage>[]);
      await eventually(() => reported.includes("search:quick"), "the quick job's report");
      expect(reported).not.toContain("search:slow"); // still waiting on its provider
      slowSearch.resolve();
      const outcome = await consumed;
      expect(reported).toEqual(["search:quick", "search:slow"]);
      expect([...outcome.explicitAcks].sort()).toEqual(["quick", "slow"]);
    } finally {
      ResearchJob.prototype.tasksDone = original;
      slowSearch.resolve();
    }
  });

  it("sets a malformed message aside (acknowledged, logged) and still processes the rest of the batch", async () => {
    const jobId = crypto.randomUUID();
    const valid = searchMessage(jobId, 1);
    const malformed = [
      { id: "bad-kind", timestamp: new Date(), attempts: 1, body: { jobId, key: "k", kind: "teleport", payload: null } },
      { id: "no-job", timestamp: new Date(), attempts: 1, body: { key: "k", kind: "search", payload: {} } },
      { id: "not-an-object", timestamp: new Date(), attempts: 1, body: "search tariffs" },
    ];
    const outcome = await consume([valid, ...malformed] as ReturnType<typeof searchMessage>[]);
    expect(outcome.retryMessages).toEqual([]);
    expect([...outcome.explicitAcks].sort()).toEqual(["bad-kind", "no-job", "not-an-object", valid.id].sort());
    expect(braveCalls).toBe(1); // only the valid task reached the provider
  });

  it("the webhook and dead-letter consumers set malformed messages aside too", async () => {
    for (const queue of ["webhook-deliveries", "research-tasks-dlq"]) {
      const batch = createMessageBatch(queue, [{ id: `bad-${queue}`, timestamp: new Date(), attempts: 1, body: { job: 42 } }]);
      const ctx = createExecutionContext();
      await worker.queue(batch, env, ctx);
      await waitOnExecutionContext(ctx);
      const result = await getQueueResult(batch, ctx);
      expect(result.explicitAcks).toEqual([`bad-${queue}`]);
      expect(result.retryMessages).toEqual([]);
    }
  });

  it.each([429, 500, 503])("retries a provider %i with exponential backoff, then reports the task failed", async (status) => {
    braveStatus = status;
    const jobId = crypto.randomUUID(); // no job object: the report lands on an empty one and changes nothing
    for (let attempt = 1; attempt < MAX_TASK_ATTEMPTS; attempt++) {
      const outcome = await consume([searchMessage(jobId, attempt)]);
      expect(outcome.retryMessages).toEqual([{ msgId: `task-${attempt}` }]);
      expect(outcome.explicitAcks).toEqual([]);
      expect(outcome.delays.get(`task-${attempt}`)).toBe(2 ** (attempt - 1));
    }
    const last = await consume([searchMessage(jobId, MAX_TASK_ATTEMPTS)]);
    expect(last.retryMessages).toEqual([]);
    expect(last.explicitAcks).toEqual([`task-${MAX_TASK_ATTEMPTS}`]);
    expect(braveCalls).toBe(MAX_TASK_ATTEMPTS);
  });

  it("does not retry a permanent provider error (400)", async () => {
    braveStatus = 400;
    const outcome = await consume([searchMessage(crypto.randomUUID(), 1)]);
    expect(outcome.retryMessages).toEqual([]);
    expect(outcome.explicitAcks).toEqual(["task-1"]);
  });

  it("acks a successful task", async () => {
    const outcome = await consume([searchMessage(crypto.randomUUID(), 1)]);
    expect(outcome.explicitAcks).toEqual(["task-1"]);
    expect(braveCalls).toBe(1);
  });
});

describe("the job's task runner", () => {
  it("records a reported answer and returns before the waiting engine runs on, so the consumer's report never waits for the job's next step", async () => {
    const stub = env.RESEARCH_JOB.get(env.RESEARCH_JOB.idFromName(crypto.randomUUID()));
    await runInDurableObject(stub, async (_instance, state) => {
      const runner = new QueuedTaskRunner(state);
      runner.createTables();
      const sent: { body: TaskMessage }[] = [];
      runner.bind("job-runner-test", { sendBatch: async (messages: { body: TaskMessage }[]) => void sent.push(...messages) } as unknown as Queue);
      let engineWokeUp = false;
      const wave = runner.runSearches([{ id: "s0", query: { query: "tariffs", limit: 3 } }]).then((results) => {
        engineWokeUp = true;
        return results;
      });
      await eventually(() => sent.length === 1, "the task sent");
      runner.complete(sent[0]!.body.key, { ok: true, value: [] });
      for (let tick = 0; tick < 20; tick++) await Promise.resolve(); // every microtask the report's return could run
      expect(engineWokeUp).toBe(false);
      expect(await wave).toEqual([{ id: "s0", ok: true, value: [] }]);
    });
  });
});

describe("failed tasks fail the job with a refund", () => {
  it("provider errors on every search: the job fails, nothing charged, everything released", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const hold = holdTasks();
    try {
      const response = await research(caller, { question: "What ended the Nullification Crisis?" });
      expect(response.status).toBe(202);
      const { id } = await json(response);
      await eventually(() => hold.heldFor(id).length > 0, "the first wave");
      for (const task of hold.held) task.outcome = { ok: false, error: "brave: HTTP 503 (after every retry)" };
      await hold.release();
      const failed = await waitForTerminal(caller, id);
      expect(failed).toMatchObject({ status: "failed", credits_charged: 0, error: expect.any(String), brief: null });
      expect(await balanceOf(caller)).toBe(500);
      expect((await jobLedger(caller.id, id)).map((e) => [e.kind, e.delta])).toEqual([
        ["reservation", -60],
        ["release", 60],
      ]);
      await expectLedgerConsistent(caller.id);
    } finally {
      await hold.release();
    }
  });

  it("the dead-letter consumer reports a task failed instead of leaving the job hanging", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const hold = holdTasks();
    try {
      const response = await research(caller, { question: "What ended the Nullification Crisis?" });
      const { id } = await json(response);
      await eventually(() => hold.heldFor(id).length > 0, "the first wave");
      // Every task the job dispatched so far has been answered (and held).
      await eventually(async () => {
        const dispatched = await runInDurableObject(
          jobStubOf(id),
          (_instance, state) => state.storage.sql.exec("SELECT count(*) AS n FROM tasks").one().n as number,
        );
        return dispatched > 0 && hold.heldFor(id).length === dispatched;
      }, "the whole first wave held");
      const lost = hold.held.splice(0); // these answers never arrive: their messages die instead
      hold.restore();
      const batch = createMessageBatch(
        "research-tasks-dlq",
        lost.map((task, i) => ({
          id: `dead-${i}`,
          timestamp: new Date(),
          attempts: 1,
          body: { jobId: task.jobId, key: task.key, kind: "search", payload: null },
        })),
      );
      const ctx = createExecutionContext();
      await worker.queue(batch as never, env);
      await waitOnExecutionContext(ctx);
      const result = await getQueueResult(batch, ctx);
      expect(result.explicitAcks.sort()).toEqual(lost.map((_, i) => `dead-${i}`).sort());
      const failed = await waitForTerminal(caller, id);
      expect(failed).toMatchObject({ status: "failed", credits_charged: 0 });
      expect(await balanceOf(caller)).toBe(500);
      await expectLedgerConsistent(caller.id);
    } finally {
      await hold.release();
    }
  });
});

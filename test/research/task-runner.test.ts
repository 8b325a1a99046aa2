import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { InProcessTaskRunner } from "../../src/research/engine";
import { QueuedTaskRunner } from "../../src/research/tasks/queued-fan-out";
import { isTaskQueue, TASK_QUEUES, taskQueueFor } from "../../src/research/tasks/task-queues";
import { taskRunnerFor } from "../../src/research/tasks/task-runner";

// Where a job's searches and reads run (issue 31): local D1 queries in the job, web ones through the queue.
const queued = new QueuedTaskRunner({} as DurableObjectState);
const collections = [{ id: "c1", name: "Archive" }];
const runnerOf = (vars: Record<string, string>, scope?: { userId: string; collections: typeof collections; web: boolean }) =>
  taskRunnerFor({ ...env, TASK_FAN_OUT: "auto", ...vars }, queued, scope);
/** The runner that does the work: in the job, a local runner wrapped so its answers are kept in the job's task log (a follow-up reads them). */
const workerOf = (runner: ReturnType<typeof runnerOf>) => ("inner" in runner ? (runner as { inner: unknown }).inner : runner);

describe("taskRunnerFor", () => {
  it("runs the corpus's searches and reads in the job", () => {
    expect(workerOf(runnerOf({ SEARCH_PROVIDER: "corpus" }))).toBeInstanceOf(InProcessTaskRunner);
  });

  it("runs a job's own collections in the job, with or without the corpus beside them", () => {
    expect(workerOf(runnerOf({ SEARCH_PROVIDER: "searxng", SEARXNG_URL: "http://127.0.0.1:9" }, { userId: "u", collections, web: false }))).toBeInstanceOf(
      InProcessTaskRunner,
    );
    expect(workerOf(runnerOf({ SEARCH_PROVIDER: "corpus" }, { userId: "u", collections, web: true }))).toBeInstanceOf(InProcessTaskRunner);
  });

  it("sends web searches and reads through the queue, alone or beside collections", () => {
    const web = { SEARCH_PROVIDER: "searxng", SEARXNG_URL: "http://127.0.0.1:9" };
    expect(runnerOf(web)).toBe(queued);
    expect(runnerOf(web, { userId: "u", collections, web: true })).toBe(queued);
  });

  it("sends everything through the queue when TASK_FAN_OUT is queue", () => {
    expect(runnerOf({ SEARCH_PROVIDER: "corpus", TASK_FAN_OUT: "queue" })).toBe(queued);
  });
});

describe("taskQueueFor", () => {
  it("sends every wave of a job to one shard, and spreads jobs over all of them", () => {
    const shardOf = (id: string) => TASK_QUEUES.findIndex((queue) => env[queue.binding] === taskQueueFor(env, id));
    const id = crypto.randomUUID();
    expect(shardOf(id)).toBe(shardOf(id));
    const used = new Set(Array.from({ length: 200 }, () => shardOf(crypto.randomUUID())));
    expect([...used].sort()).toEqual([0, 1, 2, 3]);
    expect(TASK_QUEUES.every((queue) => isTaskQueue(queue.name))).toBe(true);
    expect(isTaskQueue("research-tasks-dlq")).toBe(false);
  });
});

import { z } from "zod";
import { SECOND } from "../../lib/time";
import type { ReadTask, SearchTask, TaskResult, TaskRunner } from "../engine";
import { type Page, type SearchHit, SearchScope } from "../providers/types";

const TASK_KINDS = ["search", "read"] as const;
export type TaskKind = (typeof TASK_KINDS)[number];
export type TaskOutcome = { ok: true; value: unknown } | { ok: false; error: string };
export interface TaskAnswer {
  key: string;
  outcome: TaskOutcome;
}

/** A queue message: one search or one page read of one job's wave (checked on receipt). */
export const TaskMessage = z.object({
  jobId: z.string().min(1),
  key: z.string().min(1),
  kind: z.enum(TASK_KINDS),
  /** The search query (without signal) or the URL to read. */
  payload: z.unknown(),
  /** The job's collections, when it names some: where the consumer searches and reads. */
  scope: SearchScope.optional(),
});
export type TaskMessage = z.infer<typeof TaskMessage>;

/** A task dispatched longer ago than this without an answer is sent again (its message was lost). */
const REDISPATCH_AFTER_MS = 60 * SECOND;

/** A stable key per task, so a resumed run finds the tasks a previous run already completed. */
function taskKey(kind: TaskKind, payload: unknown): string {
  return `${kind}:${JSON.stringify(payload)}`;
}

/**
 * The job's fan-out: the engine hands it a wave's searches and reads; it sends the ones not yet
 * answered to the research-tasks queue in one batch, and resolves each when the consumer reports
 * back (`complete`). Answers are kept in the Durable Object's SQLite storage, so a run resumed
 * after eviction or a restart replays finished tasks at no cost and sends again the ones a previous
 * instance left unanswered.
 */
export class QueuedTaskRunner implements TaskRunner {
  private jobId = "";
  private queue: Queue | null = null;
  private scope: SearchScope | undefined;
  private waiting = new Map<string, Array<(outcome: TaskOutcome) => void>>();
  private toWake: Array<() => void> = [];
  private wakeScheduled = false;
  /** When this instance was created: unanswered tasks dispatched earlier belong to a run that died. */
  private readonly bootedAt = Date.now();

  constructor(private readonly ctx: DurableObjectState) {}

  createTables(): void {
    this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS tasks (key TEXT PRIMARY KEY, outcome TEXT, dispatched_at INTEGER NOT NULL)");
  }

  bind(jobId: string, queue: Queue, scope?: SearchScope): void {
    this.jobId = jobId;
    this.queue = queue;
    this.scope = scope;
  }

  runSearches(tasks: SearchTask[], signal?: AbortSignal): Promise<TaskResult<SearchHit[]>[]> {
    return this.runAll(
      tasks.map((task) => ({ id: task.id, kind: "search" as const, payload: task.query })),
      signal,
    ) as Promise<TaskResult<SearchHit[]>[]>;
  }

  readPages(tasks: ReadTask[], signal?: AbortSignal): Promise<TaskResult<Page | null>[]> {
    return this.runAll(
      tasks.map((task) => ({ id: task.id, kind: "read" as const, payload: task.url })),
      signal,
    ) as Promise<TaskResult<Page | null>[]>;
  }

  /**
   * Records a task's answer (first answer wins) and wakes whoever waits for it in a later turn:
   * the engine's next step (ranking, the next wave) must not run before the consumer's report
   * has its reply, or the consumer (and the queue's next batch behind it) waits for that CPU.
   */
  complete(key: string, outcome: TaskOutcome): void {
    this.keep(key, outcome);
    const answer = this.stored(key) ?? outcome;
    for (const resolve of this.waiting.get(key) ?? []) this.toWake.push(() => resolve(answer));
    this.waiting.delete(key);
    // One wake-up for all the answers of a report: the engine resumes once, with all of them.
    if (this.toWake.length > 0 && !this.wakeScheduled) {
      this.wakeScheduled = true;
      setTimeout(() => {
        this.wakeScheduled = false;
        for (const wake of this.toWake.splice(0)) wake();
      }, 0);
    }
  }

  /**
   * A runner that does the work in this isolate (the local corpus, the job's collections) and keeps
   * each answer here as the queue's are kept: a follow-up of this job reads the pages and searches
   * it starts from out of this table, whichever way they ran, and a resumed run replays them.
   */
  recording(inner: TaskRunner): TaskRunner & { inner: TaskRunner } {
    const keepAll = <R>(kind: TaskKind, payloads: unknown[], results: TaskResult<R>[]) => {
      for (const [index, result] of results.entries()) {
        this.keep(taskKey(kind, payloads[index]), result.ok ? { ok: true, value: result.value } : { ok: false, error: result.error });
      }
      return results;
    };
    return {
      inner,
      runSearches: async (tasks, signal) =>
        keepAll(
          "search",
          tasks.map((task) => task.query),
          await inner.runSearches(tasks, signal),
        ),
      readPages: async (tasks, signal) =>
        keepAll(
          "read",
          tasks.map((task) => task.url),
          await inner.readPages(tasks, signal),
        ),
    };
  }

  /** Stores a task's answer; the first one wins. */
  private keep(key: string, outcome: TaskOutcome): void {
    this.ctx.storage.sql.exec(
      "INSERT INTO tasks (key, outcome, dispatched_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET outcome = excluded.outcome WHERE tasks.outcome IS NULL",
      key,
      JSON.stringify(outcome),
      Date.now(),
    );
  }

  private stored(key: string): TaskOutcome | null {
    const row = this.ctx.storage.sql.exec<{ outcome: string | null }>("SELECT outcome FROM tasks WHERE key = ?", key).toArray()[0];
    return row?.outcome ? (JSON.parse(row.outcome) as TaskOutcome) : null;
  }

  private async runAll(tasks: { id: string; kind: TaskKind; payload: unknown }[], signal?: AbortSignal): Promise<TaskResult<unknown>[]> {
    const keyed = tasks.map((task) => ({ ...task, key: taskKey(task.kind, task.payload) }));
    const toSend: TaskMessage[] = [];
    const now = Date.now();
    for (const task of keyed) {
      if (this.stored(task.key)) continue;
      const row = this.ctx.storage.sql.exec<{ dispatched_at: number }>("SELECT dispatched_at FROM tasks WHERE key = ?", task.key).toArray()[0];
      // Dispatched by this instance: its message is still in flight. Dispatched before this instance
      // existed (the runtime died and restarted): its message may have died too (local queues live in
      // memory), so it is sent again; a duplicate answer is harmless, the first one wins.
      if (row && row.dispatched_at >= this.bootedAt && now - row.dispatched_at < REDISPATCH_AFTER_MS) continue;
      this.ctx.storage.sql.exec(
        "INSERT INTO tasks (key, outcome, dispatched_at) VALUES (?, NULL, ?) ON CONFLICT(key) DO UPDATE SET dispatched_at = excluded.dispatched_at",
        task.key,
        now,
      );
      toSend.push({ jobId: this.jobId, key: task.key, kind: task.kind, payload: task.payload, ...(this.scope ? { scope: this.scope } : {}) });
    }
    if (toSend.length > 0) {
      if (!this.queue) throw new Error("task runner used before bind()");
      await this.queue.sendBatch(toSend.map((body) => ({ body })));
    }
    return Promise.all(
      keyed.map(async (task): Promise<TaskResult<unknown>> => {
        const outcome = this.stored(task.key) ?? (await this.wait(task.key, signal));
        return outcome.ok ? { id: task.id, ok: true, value: outcome.value } : { id: task.id, ok: false, error: outcome.error };
      }),
    );
  }

  private wait(key: string, signal?: AbortSignal): Promise<TaskOutcome> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve({ ok: false, error: "aborted" });
      const list = this.waiting.get(key) ?? [];
      list.push(resolve);
      this.waiting.set(key, list);
      // An answer already stored (its wake-up not yet run) is kept: a cancel's partial brief uses it.
      signal?.addEventListener("abort", () => resolve(this.stored(key) ?? { ok: false, error: "aborted" }), { once: true });
    });
  }
}

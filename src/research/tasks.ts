import type { Env } from "../env";
import { createProviders } from "./engine";
import type { TaskMessage, TaskOutcome } from "./job-tasks";
import type { Providers } from "./providers";
import { ProviderError, type SearchQuery } from "./providers/types";

/** Attempts per task before it is reported failed (the queue's max_retries is higher, as a safety net). */
export const MAX_TASK_ATTEMPTS = 4;

/** Exponential backoff for provider 429/5xx: 1, 2, 4 seconds. */
export function taskRetryDelaySecs(attempt: number): number {
  return 2 ** (attempt - 1);
}

/** One set of providers per isolate, so the reader's robots.txt cache serves every task it runs. */
const providersByEnv = new WeakMap<Env, Providers>();
function providersFor(env: Env): Providers {
  let providers = providersByEnv.get(env);
  if (!providers) {
    providers = createProviders(env, env.DB);
    providersByEnv.set(env, providers);
  }
  return providers;
}

async function execute(env: Env, task: TaskMessage): Promise<unknown> {
  const providers = providersFor(env);
  if (task.kind === "search") return providers.search.search(task.payload as SearchQuery);
  return providers.reader.read(task.payload as string);
}

function report(env: Env, task: TaskMessage, outcome: TaskOutcome): Promise<void> {
  const stub = env.RESEARCH_JOB.get(env.RESEARCH_JOB.idFromName(task.jobId));
  return stub.taskDone(task.key, outcome);
}

/**
 * Consumer of research-tasks: runs each search or page read of a wave (all messages of a batch
 * at once) and reports the answer to the job's Durable Object. A provider 429 or 5xx is retried
 * with exponential backoff; after the last attempt, or for a permanent error, the task is
 * reported failed so the job goes on with what the other tasks found.
 */
export async function consumeTaskBatch(batch: MessageBatch<TaskMessage>, env: Env): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      const task = message.body;
      try {
        const value = await execute(env, task);
        await report(env, task, { ok: true, value });
        message.ack();
      } catch (error) {
        const retryable = error instanceof ProviderError ? error.retryable : true;
        if (retryable && message.attempts < MAX_TASK_ATTEMPTS) {
          message.retry({ delaySeconds: taskRetryDelaySecs(message.attempts) });
          return;
        }
        const reason = error instanceof Error ? error.message : String(error);
        try {
          await report(env, task, { ok: false, error: reason });
          message.ack();
        } catch (reportError) {
          console.error(`could not report task ${task.key} of job ${task.jobId}`, reportError);
          message.retry({ delaySeconds: taskRetryDelaySecs(message.attempts) });
        }
      }
    }),
  );
}

/** Dead-letter consumer: a task that exhausted the queue's retries is reported failed, never left hanging. */
export async function consumeDeadTaskBatch(batch: MessageBatch<TaskMessage>, env: Env): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      await report(env, message.body, { ok: false, error: "the task failed after every retry" }).catch((error: unknown) =>
        console.error(`dead-letter report for job ${message.body.jobId} failed`, error),
      );
      message.ack();
    }),
  );
}

import type { Env } from "../../env";
import { createProviders } from "../engine";
import { jobObject } from "./job-object";
import { checkedMessages } from "../../lib/queue-messages";
import { type TaskAnswer, TaskMessage } from "../tasks/queued-fan-out";
import { type Providers, ProviderError, type SearchQuery } from "../providers/types";

/** Attempts per task before it is reported failed (the queue's max_retries is higher, as a safety net). */
export const MAX_TASK_ATTEMPTS = 4;

/** Exponential backoff for provider 429/5xx: 1, 2, 4 seconds. */
function taskRetryDelaySecs(attempt: number): number {
  return 2 ** (attempt - 1);
}

function report(env: Env, jobId: string, answers: TaskAnswer[]): Promise<void> {
  return jobObject(env, jobId).tasksDone(answers);
}

/**
 * Consumer of research-tasks. A batch mixes the tasks of several jobs: each job's tasks run at
 * once and are reported to its Durable Object in one call as soon as they are all done, so no
 * job's wave waits for another job's slowest task. A provider 429 or 5xx is retried with
 * exponential backoff; after the last attempt, or for a permanent error, the task is reported
 * failed so the job goes on with what the others found. Page-cache writes run after the answers
 * are on their way (`waitUntil`).
 */
export async function consumeTaskBatch(batch: MessageBatch<unknown>, env: Env, ctx?: ExecutionContext): Promise<void> {
  const defer = ctx ? (work: Promise<unknown>) => ctx.waitUntil(work) : undefined;
  const shared = createProviders(env, env.DB, { defer });
  const byJob = new Map<string, Message<TaskMessage>[]>();
  for (const message of checkedMessages(batch, TaskMessage)) byJob.set(message.body.jobId, [...(byJob.get(message.body.jobId) ?? []), message]);
  await Promise.all(
    [...byJob].map(([jobId, messages]) => {
      // A job that names collections searches and reads only there (its messages carry the scope).
      const scope = messages[0]!.body.scope;
      return runJobTasks(env, scope ? createProviders(env, env.DB, { defer, scope }) : shared, jobId, messages);
    }),
  );
}

/** One job's tasks of the batch: run them all, then report the answers together. */
async function runJobTasks(env: Env, providers: Providers, jobId: string, messages: Message<TaskMessage>[]): Promise<void> {
  const answered: { message: Message<TaskMessage>; answer: TaskAnswer }[] = [];
  await Promise.all(
    messages.map(async (message) => {
      const task = message.body;
      try {
        const value = task.kind === "search" ? await providers.search.search(task.payload as SearchQuery) : await providers.reader.read(task.payload as string);
        answered.push({ message, answer: { key: task.key, outcome: { ok: true, value } } });
      } catch (error) {
        const retryable = error instanceof ProviderError ? error.retryable : true;
        if (retryable && message.attempts < MAX_TASK_ATTEMPTS) {
          message.retry({ delaySeconds: taskRetryDelaySecs(message.attempts) });
          return;
        }
        answered.push({ message, answer: { key: task.key, outcome: { ok: false, error: error instanceof Error ? error.message : String(error) } } });
      }
    }),
  );
  if (answered.length === 0) return;
  try {
    await report(
      env,
      jobId,
      answered.map((entry) => entry.answer),
    );
    for (const entry of answered) entry.message.ack();
  } catch (error) {
    console.error(`could not report ${answered.length} tasks of job ${jobId}`, error);
    for (const entry of answered) entry.message.retry({ delaySeconds: taskRetryDelaySecs(entry.message.attempts) });
  }
}

/** Dead-letter consumer: a task that exhausted the queue's retries is reported failed, never left hanging. */
export async function consumeDeadTaskBatch(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  await Promise.all(
    checkedMessages(batch, TaskMessage).map(async (message) => {
      await report(env, message.body.jobId, [{ key: message.body.key, outcome: { ok: false, error: "the task failed after every retry" } }]).catch(
        (error: unknown) => console.error(`dead-letter report for job ${message.body.jobId} failed`, error),
      );
      message.ack();
    }),
  );
}

import type { Env } from "../../env";

/**
 * The research-tasks queue, in shards: each job sends all its tasks to one, chosen by its id. A
 * queue's consumer keeps a batch until its slowest task is done, and local Queues deliver a
 * queue's next batch only then; with one queue, 50 jobs at once waited on each other's slowest
 * reads (bench section 3: the consumer busy 99% of the run at 0.15 cores of CPU). In production
 * each shard's consumer scales on its own. Names and bindings as wrangler.toml declares them.
 */
export const TASK_QUEUES = [
  { name: "research-tasks", binding: "RESEARCH_TASKS" },
  { name: "research-tasks-1", binding: "RESEARCH_TASKS_1" },
  { name: "research-tasks-2", binding: "RESEARCH_TASKS_2" },
  { name: "research-tasks-3", binding: "RESEARCH_TASKS_3" },
] as const satisfies readonly { name: string; binding: keyof Env }[];

/** Is this the name of a research-tasks shard (not its dead-letter queue)? */
export function isTaskQueue(name: string): boolean {
  return TASK_QUEUES.some((queue) => queue.name === name);
}

/** The shard a job's tasks go to: the same for every wave of the job (a stable hash of its id). */
export function taskQueueFor(env: Env, jobId: string): Queue {
  let hash = 0;
  for (let i = 0; i < jobId.length; i++) hash = (hash * 31 + jobId.charCodeAt(i)) >>> 0;
  return env[TASK_QUEUES[hash % TASK_QUEUES.length]!.binding];
}

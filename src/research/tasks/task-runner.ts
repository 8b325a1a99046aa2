import { type Env, loadConfig } from "../../env";
import { createProviders, InProcessTaskRunner, type TaskRunner } from "../engine";
import type { SearchScope } from "../providers/types";
import type { QueuedTaskRunner } from "./queued-fan-out";

/**
 * Where a job's searches and reads run. Local ones (the corpus, the job's own collections) are D1
 * queries: they run in the job, where a queue round trip would only add its latency and the
 * answers' trip back (bench/run.ts measures both; TASK_FAN_OUT=queue sends them through the queue).
 * Web searches and reads go through the research-tasks queue: many consumer invocations fetch a
 * wave's pages at once, where one object is held to a few connections at a time.
 */
export function taskRunnerFor(env: Env, queued: QueuedTaskRunner, scope: SearchScope | undefined): TaskRunner {
  const config = loadConfig(env);
  const searchesDefaultSpace = !scope || scope.collections.length === 0 || scope.web;
  const local = !searchesDefaultSpace || config.SEARCH_PROVIDER === "corpus";
  // Recorded like the queue's answers: a follow-up starts from what this job read, either way.
  if (config.TASK_FAN_OUT === "auto" && local) return queued.recording(new InProcessTaskRunner(createProviders(env, env.DB, { scope })));
  return queued;
}

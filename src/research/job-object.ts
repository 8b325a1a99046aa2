import type { Env } from "../env";
import type { ResearchJob } from "./job";

/** The Durable Object that runs job `id` (one object per job, named by its id): the only place that names it. */
export function jobObject(env: Pick<Env, "RESEARCH_JOB">, id: string): DurableObjectStub<ResearchJob> {
  return env.RESEARCH_JOB.get(env.RESEARCH_JOB.idFromName(id));
}

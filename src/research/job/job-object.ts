import type { Env } from "../../env";
import type { ResearchJob } from "./job";

/** The Durable Object that runs job `id` (one object per job, named by its id): the only place that names it. */
export function jobObject(env: Pick<Env, "RESEARCH_JOB">, id: string): DurableObjectStub<ResearchJob> {
  const namespace = env.RESEARCH_JOB as unknown as DurableObjectNamespace<ResearchJob>;
  return namespace.get(namespace.idFromName(id));
}

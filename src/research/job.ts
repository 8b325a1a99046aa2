import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

/**
 * One Durable Object per research job: it will hold the job's state machine, its credit
 * reservation, its waves and its SSE subscribers. The binding and its SQLite storage exist
 * from the first migration so later deploys need no class migration; the behaviour arrives
 * with the research-jobs work.
 */
export class ResearchJob extends DurableObject<Env> {}

import type { Context } from "hono";
import type { AppEnv } from "../context";
import type { ResearchJobRow } from "../db/schema/jobs";
import { ApiError } from "../lib/errors";
import { sseEvent, SSE_HEADERS } from "../lib/sse";
import type { ResearchResult } from "../research/job-state";
import { findOwnJob } from "../research/job-store";
import type { ResearchRequest } from "../research/request";
import { submitResearch } from "../research/submit";

/** Shared by /v1/research (API key) and /api/playground/research (JWT): same engine, same charges. */

export function jobStub(c: Context<AppEnv>, id: string) {
  return c.env.RESEARCH_JOB.get(c.env.RESEARCH_JOB.idFromName(id));
}

/** The caller's job, else 404 (an unknown id and another account's job look the same). */
export async function ownJob(c: Context<AppEnv>, id: string): Promise<ResearchJobRow> {
  const job = await findOwnJob(c.var.db, c.var.user.id, id);
  if (!job) throw ApiError.notFound("Research job");
  return job;
}

export async function submit(c: Context<AppEnv>, request: ResearchRequest, origin: "api" | "playground", basePath: string) {
  return submitResearch(
    {
      db: c.var.db,
      config: c.var.config,
      env: c.env,
      user: c.var.user,
      origin,
      apiKeyId: origin === "api" ? c.var.apiKeyId : null,
      resourceBase: `${new URL(c.req.url).origin}${basePath}`,
      defer: (work) => c.executionCtx.waitUntil(work),
    },
    request,
    c.req.header("Idempotency-Key"),
  );
}

/** The job's ResearchResult: live from its Durable Object, or the final row if the object has none. */
export async function jobResult(c: Context<AppEnv>, job: ResearchJobRow): Promise<ResearchResult> {
  const live = await jobStub(c, job.id).result();
  if (live) return live;
  // Rows written before claim-level citations existed have none.
  if (job.resultJson) return { citations: [], ...(JSON.parse(job.resultJson) as Omit<ResearchResult, "citations">) };
  return {
    id: job.id,
    status: job.status,
    question: job.question,
    brief: null,
    typed: null,
    sources: [],
    citations: [],
    credits_charged: job.creditsCharged,
    cost_usd: job.costUsdMicros / 1_000_000,
    created_at: job.createdAt,
    completed_at: job.completedAt,
    error: job.error,
    latency_ms: job.latencyMs,
    wave_count: job.waveCount,
  };
}

/**
 * Proxies the SSE stream of the job's Durable Object (which replays after Last-Event-ID). A job
 * its object never received (settled by the sweep from its row) streams its final result and ends.
 */
export async function jobEvents(c: Context<AppEnv>, job: ResearchJobRow): Promise<Response> {
  const headers = new Headers();
  const lastEventId = c.req.header("Last-Event-ID");
  if (lastEventId) headers.set("Last-Event-ID", lastEventId);
  const response = await jobStub(c, job.id).fetch(new Request(`https://research-job/${job.id}/events`, { headers }));
  // Through c.newResponse, so the headers the middleware prepared (X-Request-Id) are kept.
  if (response.status !== 404) return c.newResponse(response.body, { status: response.status as 200, headers: response.headers });
  await response.body?.cancel();
  const result = await jobResult(c, job);
  const after = Number(lastEventId ?? 0) || 0;
  // A row not yet terminal (its start failed moments ago; the sweep will settle it) has only a status to tell.
  const events = [sseEvent(1, "status", { status: result.status })];
  if (["succeeded", "failed", "cancelled"].includes(result.status)) events.push(sseEvent(2, "result", result));
  const frames = events.filter((_, index) => index + 1 > after);
  return c.newResponse(new Blob(frames).stream(), { status: 200, headers: SSE_HEADERS });
}

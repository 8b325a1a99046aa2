import { z } from "@hono/zod-openapi";
import { JOB_STATUSES } from "../db/schema/jobs";

/**
 * The research feature's public shapes, in zod: the single source of the published schemas
 * (/openapi.json) and of the TypeScript types the engine, the job and the routes use (z.infer).
 */

export const SourceDto = z
  .object({ url: z.string(), title: z.string(), domain: z.string(), summary: z.string().nullable().optional() })
  .openapi("SourceDto");

export const CitationDto = z
  .object({
    claim: z.string().openapi({ description: "A claim of the brief (or, with `field`, a typed field and its value), without its [n] markers." }),
    source: z.int().min(0).openapi({ description: "Index into `sources` of the source the claim rests on; the brief cites it as [source + 1]." }),
    quote: z.string().openapi({ description: "The exact text of that source the claim rests on." }),
    start: z.int().min(0).openapi({ description: "Offset of `quote` in the source's text as it was read (characters, inclusive)." }),
    end: z.int().min(0).openapi({ description: "End offset of `quote` (exclusive): quote = text.slice(start, end)." }),
    field: z.string().optional().openapi({ description: "For the typed output: the top-level field of `typed` whose value this passage supports." }),
  })
  .openapi("Citation");

export const ResearchResultDto = z
  .object({
    id: z.uuid(),
    status: z.enum(JOB_STATUSES),
    question: z.string(),
    brief: z.string().nullable(),
    typed: z.unknown().openapi({ description: "Typed output per response_schema; null without one." }),
    sources: z.array(SourceDto).openapi({ description: "The pages the brief relies on, in citation order: [n] in the brief is sources[n - 1]." }),
    citations: z.array(CitationDto).openapi({
      description: "The claim-level basis of the brief: one entry per cited claim and source, with the exact quote and its offsets. Empty until the job succeeds.",
    }),
    credits_charged: z.int(),
    cost_usd: z.number(),
    created_at: z.iso.datetime(),
    completed_at: z.iso.datetime().nullable(),
    error: z.string().nullable(),
    latency_ms: z.int().nullable(),
    wave_count: z.int().nullable(),
  })
  .openapi("ResearchResult");

export const AsyncAcceptedDto = z
  .object({ id: z.uuid(), status: z.literal("pending"), status_url: z.url(), events_url: z.url() })
  .openapi("AsyncAccepted");

/** The fields every job list shares (job-store's `jobSummary`). */
export const JobSummaryDto = z.object({
  id: z.uuid(),
  created_at: z.iso.datetime(),
  status: z.enum(JOB_STATUSES),
  question: z.string(),
  credits_charged: z.int(),
  cost_usd_micros: z.int(),
  latency_ms: z.int().nullable(),
});

export const ResearchLogRowDto = JobSummaryDto.extend({
  completed_at: z.iso.datetime().nullable(),
  source_count: z.int().nullable(),
  wave_count: z.int().nullable(),
}).openapi("ResearchLogRow");

export const DeliveryDto = z
  .object({
    attempt: z.int(),
    status_code: z.int().nullable(),
    error: z.string().nullable(),
    duration_ms: z.int(),
    created_at: z.iso.datetime(),
  })
  .openapi("WebhookDelivery");


export type SourceDto = z.infer<typeof SourceDto>;
export type CitationDto = z.infer<typeof CitationDto>;
export type ResearchResult = z.infer<typeof ResearchResultDto>;
export type AsyncAccepted = z.infer<typeof AsyncAcceptedDto>;
export type JobSummary = z.infer<typeof JobSummaryDto>;
export type WebhookDelivery = z.infer<typeof DeliveryDto>;

import { z } from "@hono/zod-openapi";
import { JOB_STATUSES } from "../db/schema/jobs";
import { CHARGE_RULES } from "./pricing";

/**
 * The research feature's public shapes, in zod: the single source of the published schemas
 * (/openapi.json) and of the TypeScript types the engine, the job and the routes use (z.infer).
 */

/** A job's status, as every job shape publishes it. */
export const JobStatus = z.enum(JOB_STATUSES).openapi({
  description:
    "Where the job is: `pending` (accepted, not started), `running`, then one of the terminal states `succeeded` (the brief is ready), `failed` (`error` says why; nothing charged) or `cancelled` (charged only for the work already done).",
});
const JobId = z.uuid().openapi({ description: "The job's id." });
const Question = z.string().openapi({ description: "The question, as submitted (trimmed)." });
const CreatedAt = z.iso.datetime().openapi({ description: "When the job was accepted (UTC)." });
const CompletedAt = z.iso.datetime().nullable().openapi({ description: "When the job reached a terminal state (UTC); null while it runs." });
const LatencyMs = z.int().nullable().openapi({ description: "Milliseconds from acceptance to the terminal state; null while the job runs." });
const WaveCount = z
  .int()
  .nullable()
  .openapi({ description: "Search-and-read waves the job ran (at most the mode's `max_waves`); while it runs, the current wave (null before the first)." });

export const SourceDto = z
  .object({
    url: z.string().openapi({
      description: "Where the source lives: a web URL, or for a document of your collections its own url, else `collection://<collection id>/<document id>`.",
    }),
    title: z.string().openapi({ description: "The page's or document's title." }),
    domain: z.string().openapi({ description: "The URL's host (for a collection document without a url, the collection's name)." }),
    published_at: z.string().optional().openapi({
      description:
        "When the page says it was published, from its own metadata (article:published_time, JSON-LD datePublished, <time datetime>, ...; for a collection document, its metadata's `published_at`): ISO 8601, a date (`2024-05-01`) or a UTC time (`2024-05-01T14:30:00Z`). Absent when it states none. The brief may cite it (and the author): both are part of the source's text as read, one sentence after the page's own text, `This page was published on 1 May 2024 by Jane Doe.`, which a citation can quote.",
      example: "2024-05-01",
    }),
    author: z.string().optional().openapi({
      description:
        "Who the page says wrote it, from its own metadata (author meta tags, JSON-LD author, the byline; for a collection document, its metadata's `author`); several names are joined with commas. Absent when it states none.",
      example: "Jane Doe",
    }),
    summary: z.string().nullable().optional().openapi({
      description:
        "The source's sentences the brief relies on, joined. Present when the request's `include_sources` is true (the default); null or absent otherwise.",
    }),
    from_job_id: z.uuid().optional().openapi({
      description:
        "Only in a follow-up (`previous_job_id`): the earlier job of the thread that read this source, whose reading the follow-up reused instead of reading the page again. Absent for a source the job read itself. Old and new sources share one numbering: [n] is `sources[n - 1]` whichever job read it.",
    }),
  })
  .openapi("SourceDto", { description: "A source the brief cites." });

export const CitationDto = z
  .object({
    claim: z.string().openapi({ description: "A claim of the brief (or, with `field`, a typed field and its value), without its [n] markers." }),
    source: z.int().min(0).openapi({ description: "Index into `sources` of the source the claim rests on; the brief cites it as [source + 1]." }),
    quote: z.string().openapi({ description: "The exact text of that source the claim rests on." }),
    start: z.int().min(0).openapi({ description: "Offset of `quote` in the source's text as it was read (characters, inclusive)." }),
    end: z.int().min(0).openapi({ description: "End offset of `quote` (exclusive): quote = text.slice(start, end)." }),
    field: z.string().optional().openapi({
      description:
        "For the typed output: the field of `typed` whose value this passage supports, as a path (`year`, `author.born`, `findings[0]`). Every field of `typed` that holds a value has at least one such entry; a field no passage supports is null, left out, or fails the job.",
    }),
    confidence: z.enum(["high", "medium", "low"]).optional().openapi({
      description:
        "Only on entries with `field`: how strongly the passage supports the value. `high`: the passage states the value with the words the field names (or the value is the passage, or the source itself). `medium`: it states the value in a passage about the question, or the brief's answer rests on it. `low`: the passage holds the value but ties it to the field only loosely; check it.",
    }),
  })
  .openapi("Citation", { description: "The exact passage of a source that one claim of the brief rests on." });

const ANSWER_CONFIDENCES = ["high", "medium", "low"] as const;

const ShortAnswerDto = z
  .object({
    text: z.string().openapi({
      description:
        "The answer itself, as a QA dataset gives it: an entity, a date, a number, a place, `yes` or `no`, or for an open question one sentence. Never the question re-spelled around a phrase.",
    }),
    confidence: z.enum(ANSWER_CONFIDENCES).openapi({
      description:
        "How likely the answer is to be right. The engine's own answers: `high` when its estimated `probability` is 0.95 or more, `medium` when 0.8 or more; below, no answer is stated (null). A hosted model's answer: `high` when a quote states it for the subject asked about, `medium` when it follows from what the quotes state. `low`: a guess from the closest evidence; check its citations.",
    }),
    probability: z.number().min(0).max(1).optional().openapi({
      description:
        "The estimated probability that the engine's own answer is right, from a small model trained and calibrated on training questions of multi-hop QA datasets, and checked on training questions it never saw: `high` is 0.95 or more, `medium` 0.8 or more. Absent where no such model scores the answer (a hosted model's answer, an open question's overview, a mention looked up in a speaker's documents).",
      example: 0.97,
    }),
    citations: z
      .array(z.int().min(0))
      .openapi({ description: "Indexes into `sources` of the sources the answer rests on (the brief cites them as [index + 1])." }),
  })
  .openapi("ShortAnswer", { description: "The short answer to the question, with how far the sources read support it." });

export const ChargeBasisDto = z
  .object({
    rule: z.enum(CHARGE_RULES).openapi({
      description:
        "The rule that decided `credits_charged`. `mode_price`: succeeded, and the brief cites sources that address the question: the mode's price (lite 15, standard 60, pro 200). `nothing_addressed`: succeeded, but no source read addresses the question (the brief says so and cites none): only the metered work, `ceil(cost_usd * 100)`, never more than the price. `metered`: a max job, priced by its metered work, at most `max_credits`. `cancelled`: the metered work done before the cancel. `refunded`: the job failed, nothing charged. `follow_up`: a succeeded follow-up (`previous_job_id`) whose brief cites sources: a quarter of the mode's price (lite 4, standard 15, pro 50) plus its own metered work, never more than its reservation (that quarter plus half the price). `reserved`: still running, nothing charged yet (the price, or `max_credits`, is reserved).",
    }),
    reason: z.string().openapi({
      description: "Why it cost what it cost, in one sentence for a person, with the figures.",
      example:
        "Charged only its metered work, 9 credits ($0.09), not the standard price of 60 credits: no source the job read addresses the question, so its brief cites none.",
    }),
  })
  .openapi("ChargeBasis", { description: "Why a job was charged what it was: the rule applied and a sentence with the figures." });
export type { ChargeBasis, ChargeRule } from "./pricing";

export const ResearchResultDto = z
  .object({
    id: JobId,
    status: JobStatus,
    question: Question,
    brief: z.string().nullable().openapi({
      description:
        'The brief, in Markdown of one fixed form (written and read by one module of the service): blocks separated by a blank line, each an optional heading line followed by either one paragraph line or bullet lines (`- ` each). It opens with a paragraph: the direct answer, or what the sources say and do not say. A heading is either a section of a longer report, `## Title` (`## Findings`; `## Open questions` last, whose bullets are questions the sources leave open and cite nothing), or a group, `**Title**` alone on its line: what the findings under it are about (a source\'s title, or a subject, period or speaker). Every claim ends with its citations, one or more `[n]` before its closing punctuation, where `[n]` is `sources[n - 1]`; a line may carry a label before a colon ("Grover Cleveland, 1887: ..."), who said it and when. No other Markdown is used. Null until the job succeeds. A failed job is refunded and carries no brief, sources or citations, only its `error` (for a typed output, the fields no source supports or that do not conform). A job cancelled while it was still gathering carries a brief of the pages it had read (`partial`), when what it read addresses the question; one cancelled while writing, none.',
    }),
    // A union, not .nullable(): .nullable().openapi() on a named schema rewrites the component
    // itself (ShortAnswer would turn nullable and take this field's description).
    answer: z.union([ShortAnswerDto, z.null()]).openapi({
      description:
        "The short answer with its confidence and the sources it rests on; null when the sources read do not answer the question (the brief then says what was found and what is missing), and until the job succeeds.",
    }),
    typed: z.unknown().openapi({
      description:
        "The typed output: an object that conforms to the request's `response_schema`, holding only values a cited passage supports (each has entries with `field` in `citations`). A field no source supports is null where the schema allows null, left out where it is optional; a required one fails the job, refunded. Null without a `response_schema`, and until the job succeeds.",
    }),
    sources: z.array(SourceDto).openapi({
      description:
        "The pages the brief relies on, in citation order: [n] in the brief is sources[n - 1]. Before the job succeeds (and when it did not), the pages read so far; a job that failed on its typed output keeps its brief's sources.",
    }),
    citations: z.array(CitationDto).openapi({
      description:
        "The claim-level basis of the brief: one entry per cited claim and source, with the exact quote and its offsets; entries with `field` are the basis of the typed output's values, with a `confidence`. Empty until the job succeeds, except the brief's own entries when the job failed on its typed output.",
    }),
    credits_charged: z.int().openapi({
      description:
        "Credits this job cost you: the mode's price when it succeeded (`max`: its metered cost, at most `max_credits`), the work done when cancelled, 0 when failed. 0 while it runs (the price is reserved, not yet charged). A succeeded job whose brief cites no source (nothing it read addresses the question, and the brief says so) is charged only its metered work, `ceil(cost_usd * 100)`, never more than the mode's price. `charge_basis` says which rule applied and why.",
    }),
    charge_basis: ChargeBasisDto,
    cost_usd: z.number().openapi({
      description:
        "The metered cost of the work the job did (so far, while it runs), in USD, at the operation prices (`GET /api/billing/op-prices`); never above the mode's cost envelope.",
    }),
    created_at: CreatedAt,
    completed_at: CompletedAt,
    error: z.string().nullable().openapi({ description: "Why the job failed; null unless `status` is `failed`." }),
    latency_ms: LatencyMs,
    wave_count: WaveCount,
    previous_job_id: z.uuid().nullable().openapi({
      description:
        "The job this one follows up (the request's `previous_job_id`): it started from that job's sources and passages, and searched and read only what the follow-up adds. Null for a job that follows none.",
    }),
    thread: z.array(z.uuid()).openapi({
      description:
        "The jobs before this one in its thread, oldest first (its `previous_job_id` last); empty for a job that follows none. A thread holds at most 10 jobs.",
    }),
    partial: z.boolean().openapi({
      description:
        "True when the job was cancelled: `sources` are the pages it had read and, if the cancel stopped it while it was still gathering, `brief` and `citations` an extractive brief of them, written at no extra charge (null once it was writing: a brief of everything read is the research itself, charged the mode's price). False otherwise.",
    }),
  })
  .openapi("ResearchResult", { description: "A research job and, once it succeeded, its brief, typed output, sources and citations." });

/**
 * What a cancel did. The spec answers DELETE with the ResearchResult; these two fields are added
 * so a cancel that lost the race to the job's end is never silent (decisions.md, Research jobs).
 */
export const CANCEL_OUTCOMES = ["cancelled", "already_finished"] as const;

export const CancelResultDto = ResearchResultDto.extend({
  cancel_outcome: z.enum(CANCEL_OUTCOMES).openapi({
    description:
      "What this cancel did. `cancelled`: the job was pending or running and this request stopped it (`status` is `cancelled`, charged only the work already done). `already_finished`: the job had ended before the cancel could stop it (`status` says how: a corpus job often ends in well under a second); nothing was changed and `credits_charged` is what it cost.",
  }),
  cancel_message: z.string().openapi({
    description:
      "The outcome in one sentence, for showing to a person, e.g. `The job had already succeeded when the cancel arrived: it was charged 60 credits ($0.60). Nothing was changed.`",
  }),
}).openapi("CancelResult", {
  description: "The answer to a cancel: the job as the cancel left it (a ResearchResult) and what the cancel did.",
});

export const AsyncAcceptedDto = z
  .object({
    id: JobId,
    status: z.literal("pending").openapi({ description: "Always `pending`: the job is accepted and queued." }),
    status_url: z.url().openapi({
      description: "Where to poll the job (`GET .../research/{id}`): it answers the ResearchResult, whose `status` ends in succeeded, failed or cancelled.",
    }),
    events_url: z
      .url()
      .openapi({ description: "Where to stream the job's progress as Server-Sent Events (`GET .../research/{id}/events`); the last event is the result." }),
  })
  .openapi("AsyncAccepted", { description: "A job accepted to run in the background (HTTP 202): where to follow it." });

const PROGRESS_STAGES = ["planning", "searching", "reading", "analyzing", "reflecting", "synthesizing", "critic", "typed_output", "done"] as const;

/** Where a running job is: what the engine reports after each step, and what its `progress` events carry. */
export const ResearchProgressDto = z
  .object({
    stage: z.enum(PROGRESS_STAGES).openapi({
      description:
        "The step under way: `planning`, `searching`, `reading`, `analyzing`, `reflecting` (with a hosted model: deciding what to search and read next), `synthesizing`, `critic`, `typed_output` or `done`.",
    }),
    wave: z.int().min(0).openapi({ description: "The search-and-read wave under way (0 while planning)." }),
    searches: z.int().min(0).openapi({ description: "Searches run so far." }),
    pages: z.int().min(0).openapi({ description: "Pages read so far." }),
    cost_usd: z.number().min(0).openapi({ description: "What the job has spent so far, in USD (the metered cost, as `cost_usd` of the result)." }),
  })
  .openapi("JobProgress", { description: "Where a running job is and what it has spent so far." });

/** The fields every job list shares (job-store's `jobSummary`). */
export const JobSummaryDto = z.object({
  id: JobId,
  created_at: CreatedAt,
  status: JobStatus,
  question: Question,
  credits_charged: z.int().openapi({ description: "Credits the job cost (0 while it runs, and when it failed)." }),
  cost_usd_micros: z.int().openapi({ description: "The job's metered cost in micro-USD (millionths of a dollar): 17000 is 0.017 USD." }),
  latency_ms: LatencyMs,
});

/** Where a job came from (issue 45), as the account's lists show it (job-store's `jobLineage`). */
export const JobLineageShape = {
  previous_job_id: z.uuid().nullable().openapi({
    description:
      "The job this one follows up (its request's `previous_job_id`; `GET /v1/research/{id}` shows the whole thread). Null for a job that follows none, and for jobs run before lineage was recorded.",
    example: "63b1e89d-8acd-48c3-9508-7482112b2305",
  }),
  plan_id: z.uuid().nullable().openapi({
    description:
      "The reviewed plan the job ran (its request's `plan_id`, from `POST /v1/research/plan`). Null for a job that planned for itself, and for jobs run before lineage was recorded.",
    example: "0b7e1c52-3f0a-4d8e-9a51-6c2f4e8d9b17",
  }),
  monitor_id: z.uuid().nullable().openapi({
    description:
      "The monitor whose run this job is (`GET /v1/monitors/{id}/runs` lists its runs and what changed). Null for a job submitted directly, and for jobs run before lineage was recorded.",
    example: "5d1f3a9e-2c47-4b8a-8e6d-0f9c7b2a4e31",
  }),
};

export const ResearchLogRowDto = JobSummaryDto.extend({
  completed_at: CompletedAt,
  source_count: z.int().nullable().openapi({ description: "Sources the brief cites; null while the job runs." }),
  wave_count: z.int().nullable().openapi({ description: "Search-and-read waves the job ran; null while it runs." }),
  ...JobLineageShape,
}).openapi("ResearchLogRow", { description: "A research job in a list: its figures and where it came from, without the brief." });

export const DeliveryDto = z
  .object({
    delivery_id: z.string().openapi({
      description:
        "The delivery this attempt belongs to (`X-Service-Delivery` and `webhook-id`): the job id for its terminal delivery, `<job id>:<event>[:<wave>]` for the others. Resend it with `POST /v1/research/{id}/deliveries/{delivery_id}/resend`.",
    }),
    event: z.string().openapi({ description: "The delivery's event (`X-Service-Event`), e.g. `research.completed`." }),
    attempt: z.int().openapi({ description: "The attempt's number within its delivery, from 1." }),
    status_code: z.int().nullable().openapi({
      description:
        "The HTTP status your endpoint answered; null when there was no answer (timeout after 10 s, connection refused, an address refused as unsafe).",
    }),
    error: z.string().nullable().openapi({ description: "Why the attempt failed; null when it succeeded (a 2xx)." }),
    duration_ms: z.int().openapi({ description: "Milliseconds the attempt took." }),
    created_at: z.iso.datetime().openapi({ description: "When the attempt was made (UTC)." }),
  })
  .openapi("WebhookDelivery", { description: "One attempt to deliver a job's event to its `webhook_url`." });

export const WebhookTestRequestDto = z
  .object({
    url: z.string().max(2048).openapi({
      description: "Where to POST the test event: the same rules as `webhook_url` (https, public address, no credentials).",
      example: "https://example.com/hooks/research",
    }),
  })
  .strict()
  .openapi("WebhookTestRequest", { description: "Where to send a `webhook.test` event." });

export const WebhookSendResultDto = z
  .object({
    delivery_id: z.string().openapi({ description: "The delivery's id (`X-Service-Delivery`, `webhook-id`)." }),
    event: z.string().openapi({ description: "The event sent (`webhook.test`, or the resent delivery's event)." }),
    attempt: z.int().optional().openapi({ description: "A resend: its attempt number within the delivery (recorded in the job's deliveries)." }),
    status_code: z.int().nullable().openapi({ description: "What your endpoint answered; null when there was no answer (timeout, refused address)." }),
    error: z.string().nullable().openapi({ description: "Why it failed; null on a 2xx." }),
    duration_ms: z.int().openapi({ description: "Milliseconds the attempt took." }),
  })
  .openapi("WebhookSendResult", { description: "The outcome of one attempt sent now (a test event or a resend): made once, not retried." });

export type SourceDto = z.infer<typeof SourceDto>;
export type CitationDto = z.infer<typeof CitationDto>;
export type ShortAnswer = z.infer<typeof ShortAnswerDto>;
export type AnswerConfidence = ShortAnswer["confidence"];
export type ResearchResult = z.infer<typeof ResearchResultDto>;
export type AsyncAccepted = z.infer<typeof AsyncAcceptedDto>;
export type CancelResult = z.infer<typeof CancelResultDto>;
export type CancelOutcome = CancelResult["cancel_outcome"];
export type ResearchProgress = z.infer<typeof ResearchProgressDto>;

import type { z } from "@hono/zod-openapi";
import type {
  AsyncAcceptedDto,
  CancelResultDto,
  DeliveryDto,
  JobEventDto,
  ResearchLogRowDto,
  ResearchQuoteDto,
  ResearchRequestSchema,
  ResearchResultDto,
} from "../research/service";

/**
 * The examples the reference shows for research (collections: collection-examples.ts): taken from real answers of this
 * service (the offline engine over the State of the Union corpus), shortened. Typed by their
 * schemas here, and validated against the published schemas by test/openapi-reference.test.ts.
 */

type Input<T extends z.ZodType> = z.input<T>;

/** The origin the examples' absolute URLs use. */
const ORIGIN = "https://api.example.com";
const JOB_ID = "63b1e89d-8acd-48c3-9508-7482112b2305";
const ASYNC_JOB_ID = "f6ba9db4-5f45-477e-ab6c-85b5085af8b7";

export const researchRequestExample = {
  question: "What did presidents say about tariffs in the 1890s?",
  mode: "lite",
  response_schema: {
    type: "object",
    properties: { summary: { type: "string", description: "One sentence answering the question." } },
    required: ["summary"],
  },
} satisfies Input<typeof ResearchRequestSchema>;

/** The quote of researchRequestExample for an account with its 500 signup credits. */
export const researchQuoteExample = {
  mode: "lite",
  metered: false,
  credits_reserved: 15,
  max_charge_credits: 15,
  max_charge_usd: 0.15,
  envelope: { max_waves: 1, max_searches: 4, max_pages: 5, max_wallclock_secs: 60 },
  runs: "sync",
  balance_credits: 500,
  covered: true,
  covered_by: "balance",
  follow_up: null,
  insufficient_credits: null,
} satisfies Input<typeof ResearchQuoteDto>;

export const researchResultExample = {
  id: JOB_ID,
  status: "succeeded",
  question: "What did presidents say about tariffs in the 1890s?",
  brief:
    "Presidents of the 1890s argued over tariff reform: Cleveland wanted lower charges on the necessaries of life [1], while Harrison left tariff revision to the incoming Congress [2].\n\n" +
    "**Grover Cleveland: State of the Union address, 1893**\n" +
    "- After a hard struggle tariff reform is directly before us [1].\n" +
    "- Manifestly if we are to aid the people directly through tariff reform, one of its most obvious features should be a reduction in present tariff charges upon the necessaries of life [1].\n\n" +
    "**Benjamin Harrison: State of the Union address, 1892**\n" +
    "- I recommend that the whole subject of tariff revision be left to the incoming Congress [2].",
  answer: {
    text: "Cleveland wanted lower tariff charges on the necessaries of life, while Harrison left tariff revision to the incoming Congress.",
    confidence: "medium",
    citations: [0, 1],
  },
  typed: { summary: "Tariff reform should reduce present tariff charges upon the necessaries of life." },
  sources: [
    {
      url: "corpus://sotu.corpus/1893-grover-cleveland",
      title: "Grover Cleveland: State of the Union address, 1893",
      domain: "sotu.corpus",
      summary:
        "After a hard struggle tariff reform is directly before us. Manifestly if we are to aid the people directly through tariff reform, one of its most obvious features should be a reduction in present tariff charges upon the necessaries of life.",
    },
    {
      url: "corpus://sotu.corpus/1892-benjamin-harrison",
      title: "Benjamin Harrison: State of the Union address, 1892",
      domain: "sotu.corpus",
      summary: "I recommend that the whole subject of tariff revision be left to the incoming Congress.",
    },
  ],
  citations: [
    {
      claim: "After a hard struggle tariff reform is directly before us.",
      source: 0,
      quote: "After a hard struggle tariff reform is directly before us.",
      start: 71313,
      end: 71371,
    },
    {
      claim:
        "Manifestly if we are to aid the people directly through tariff reform, one of its most obvious features should be a reduction in present tariff charges upon the necessaries of life.",
      source: 0,
      quote:
        "Manifestly if we are to aid the people directly through tariff reform, one of its most obvious features should be a reduction in present tariff charges upon the necessaries of life.",
      start: 72717,
      end: 72898,
    },
    {
      claim: "I recommend that the whole subject of tariff revision be left to the incoming Congress.",
      source: 1,
      quote: "I recommend that the whole subject of tariff revision be left to the incoming Congress.",
      start: 12749,
      end: 12836,
    },
    {
      claim: "summary: Tariff reform should reduce present tariff charges upon the necessaries of life.",
      source: 0,
      quote:
        "Manifestly if we are to aid the people directly through tariff reform, one of its most obvious features should be a reduction in present tariff charges upon the necessaries of life.",
      start: 72717,
      end: 72898,
      field: "summary",
    },
  ],
  credits_charged: 15,
  charge_basis: {
    rule: "mode_price",
    reason: "Charged the lite price, 15 credits ($0.15): the brief cites 2 sources that address the question. Its metered work came to 1.7 credits.",
  },
  cost_usd: 0.017,
  created_at: "2026-11-23T17:59:49.149Z",
  completed_at: "2026-11-23T17:59:49.500Z",
  error: null,
  latency_ms: 297,
  wave_count: 1,
  previous_job_id: null,
  thread: [],
  partial: false,
} satisfies Input<typeof ResearchResultDto>;

/** A job cancelled during its second wave: charged for the work done (ceil(0.021 × 100) = 3 credits), the rest refunded. */
export const cancelledResultExample = {
  id: ASYNC_JOB_ID,
  status: "cancelled",
  question: "How did presidents describe the railroads?",
  brief: null,
  answer: null,
  typed: null,
  sources: [
    { url: "corpus://sotu.corpus/1908-theodore-roosevelt", title: "Theodore Roosevelt: State of the Union address, 1908", domain: "sotu.corpus" },
    { url: "corpus://sotu.corpus/1869-ulysses-s-grant", title: "Ulysses S Grant: State of the Union address, 1869", domain: "sotu.corpus" },
  ],
  citations: [],
  credits_charged: 3,
  charge_basis: {
    rule: "cancelled",
    reason: "Charged 3 credits ($0.03), the metered work done before the cancel stopped the job; the other 57 credits reserved went back to your balance.",
  },
  cost_usd: 0.021,
  created_at: "2026-11-23T17:59:49.605Z",
  completed_at: "2026-11-23T17:59:50.211Z",
  error: null,
  latency_ms: 606,
  wave_count: 2,
  previous_job_id: null,
  thread: [],
  partial: false,
  cancel_outcome: "cancelled",
  cancel_message: "Cancelled: the job was charged 3 credits ($0.03) for the work already done, and the rest of its reservation was refunded.",
} satisfies Input<typeof CancelResultDto>;

/** A job's stream, from its first event to its result (some sources and progress left out: the ids skip them). */
export const jobEventsExample = [
  { id: 1, event: "status", data: { status: "pending" } },
  { id: 2, event: "status", data: { status: "running" } },
  { id: 3, event: "progress", data: { stage: "searching", wave: 1, searches: 4, pages: 0, cost_usd: 0.02 } },
  {
    id: 4,
    event: "source",
    data: { url: "corpus://sotu.corpus/1908-theodore-roosevelt", title: "Theodore Roosevelt: State of the Union address, 1908", domain: "sotu.corpus" },
  },
  { id: 9, event: "status", data: { status: "succeeded" } },
  {
    id: 10,
    event: "result",
    data: {
      id: ASYNC_JOB_ID,
      status: "succeeded",
      question: "How did presidents describe the railroads?",
      brief: "...",
      answer: { text: "...", confidence: "medium", citations: [0] },
      typed: null,
      sources: [{ url: "corpus://sotu.corpus/1908-theodore-roosevelt", title: "Theodore Roosevelt: State of the Union address, 1908", domain: "sotu.corpus" }],
      citations: [],
      credits_charged: 60,
      charge_basis: {
        rule: "mode_price",
        reason: "Charged the standard price, 60 credits ($0.60): the brief cites 1 source that addresses the question. Its metered work came to 8.7 credits.",
      },
      cost_usd: 0.087,
      created_at: "2026-11-23T17:59:49.605Z",
      completed_at: "2026-11-23T17:59:50.994Z",
      error: null,
      latency_ms: 1332,
      wave_count: 2,
      previous_job_id: null,
      thread: [],
      partial: false,
    },
  },
] satisfies Input<typeof JobEventDto>[];

/** The event a failed job sends just before its result. */
export const jobErrorEventExample = {
  id: 12,
  event: "error",
  data: { code: "job_failed", message: "Typed output: no source supports the required field(s) code." },
} satisfies Input<typeof JobEventDto>;

/** The 202 answer on a surface whose research path is `basePath` (status_url and events_url point there). */
export function asyncAcceptedExample(basePath: string) {
  return {
    id: ASYNC_JOB_ID,
    status: "pending",
    status_url: `${ORIGIN}${basePath}/${ASYNC_JOB_ID}`,
    events_url: `${ORIGIN}${basePath}/${ASYNC_JOB_ID}/events`,
  } satisfies Input<typeof AsyncAcceptedDto>;
}

export const researchLogExample = [
  {
    id: ASYNC_JOB_ID,
    created_at: "2026-11-23T17:59:49.605Z",
    status: "succeeded",
    question: "How did presidents describe the railroads?",
    credits_charged: 60,
    cost_usd_micros: 87000,
    latency_ms: 1332,
    completed_at: "2026-11-23T17:59:50.994Z",
    source_count: 3,
    wave_count: 2,
    previous_job_id: JOB_ID,
    plan_id: null,
    monitor_id: null,
  },
  {
    id: JOB_ID,
    created_at: "2026-11-23T17:59:49.149Z",
    status: "succeeded",
    question: "What did presidents say about tariffs in the 1890s?",
    credits_charged: 15,
    cost_usd_micros: 17000,
    latency_ms: 297,
    completed_at: "2026-11-23T17:59:49.500Z",
    source_count: 2,
    wave_count: 1,
    previous_job_id: null,
    plan_id: null,
    monitor_id: "5d1f3a9e-2c47-4b8a-8e6d-0f9c7b2a4e31",
  },
] satisfies Input<typeof ResearchLogRowDto>[];

/** A receiver that was down for the first attempt and answered on the second. */
export const deliveriesExample = [
  {
    delivery_id: "3f0c9a8e-2d4b-4c1e-9f6a-7b8c9d0e1f2a",
    event: "research.completed",
    attempt: 1,
    status_code: 503,
    error: "receiver answered 503",
    duration_ms: 184,
    created_at: "2026-11-23T17:59:51.120Z",
  },
  {
    delivery_id: "3f0c9a8e-2d4b-4c1e-9f6a-7b8c9d0e1f2a",
    event: "research.completed",
    attempt: 2,
    status_code: 200,
    error: null,
    duration_ms: 95,
    created_at: "2026-11-23T18:00:51.402Z",
  },
] satisfies Input<typeof DeliveryDto>[];

// ---- Collections ----------------------------------------------------------------------------

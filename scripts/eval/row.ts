/** One evaluated question: what was asked, what the customer got back, and its scores. */
import type { EvalQuestion } from "./dataset";
import { type QuestionScores, scoreAnswer } from "./score";

export interface QuestionRow {
  index: number;
  id: string;
  file: string;
  type: string;
  question: string;
  expected_answer: string;
  gold_urls: string[];
  /** The job's final status, or "no_result" when the client never got one. */
  status: string;
  /** Set when the job did not succeed (HTTP error, job error, client timeout). */
  error: string | null;
  job_id: string | null;
  http_status: number | null;
  /** sync (200), sse, poll, none; "in-process" for the debugging path. */
  via: string;
  brief: string;
  sources: { url: string; title: string }[];
  metrics: QuestionScores;
  latency: { job_ms: number | null; wall_ms: number };
  credits_charged: number;
  cost_usd: number;
  wave_count: number | null;
}

export interface Outcome {
  status: string;
  error: string | null;
  jobId: string | null;
  httpStatus: number | null;
  via: string;
  brief: string | null;
  sources: { url: string; title: string }[];
  jobMs: number | null;
  wallMs: number;
  credits: number;
  costUsd: number;
  waves: number | null;
}

/** A job that did not succeed scores as nothing: the customer got no answer. */
export function buildRow(index: number, question: EvalQuestion, outcome: Outcome): QuestionRow {
  const succeeded = outcome.status === "succeeded";
  const brief = succeeded ? (outcome.brief ?? "") : "";
  const sources = succeeded ? outcome.sources.map(({ url, title }) => ({ url, title })) : [];
  return {
    index,
    id: question.id,
    file: question.file,
    type: question.type,
    question: question.question,
    expected_answer: question.answer,
    gold_urls: question.goldUrls,
    status: outcome.status,
    error: outcome.error,
    job_id: outcome.jobId,
    http_status: outcome.httpStatus,
    via: outcome.via,
    brief: outcome.brief ?? "",
    sources: outcome.sources.map(({ url, title }) => ({ url, title })),
    metrics: scoreAnswer(question, brief, sources.map((source) => source.url)),
    latency: { job_ms: outcome.jobMs, wall_ms: outcome.wallMs },
    credits_charged: outcome.credits,
    cost_usd: outcome.costUsd,
    wave_count: outcome.waves,
  };
}

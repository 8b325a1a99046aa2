/** One evaluated question: what was asked, what the customer got back, and its scores. */
import type { AnswerSource, EvalAnswer } from "./answer";
import type { EvalQuestion } from "./dataset";
import { type QuestionScores, scoreAnswer } from "./score";
import type { EvalWriteReport } from "./write-summary";

export interface QuestionRow {
  index: number;
  id: string;
  file: string;
  type: string;
  hops: number;
  question: string;
  expected_answer: string;
  answer_aliases: string[];
  gold_urls: string[];
  /** The job's final status, or "no_result" when the client never got one. */
  status: string;
  /** Set when the job did not succeed (HTTP error, job error, client timeout). */
  error: string | null;
  job_id: string | null;
  http_status: number | null;
  /** sync (200), sse, poll, none; "in-process" for the debugging path. */
  via: string;
  /** The short answer as scored (null: the engine says the sources do not answer, or the job failed). */
  answer: EvalAnswer | null;
  /** Whether `answer` is the result's field or a brief's opening sentence standing in for it. */
  answer_source: AnswerSource;
  brief: string;
  sources: { url: string; title: string }[];
  metrics: QuestionScores;
  latency: { job_ms: number | null; wall_ms: number };
  credits_charged: number;
  cost_usd: number;
  wave_count: number | null;
  /** With a model: what the write stage kept of the model's writing (the admin job detail); null when the job has none. */
  write_report: EvalWriteReport | null;
}

export interface Outcome {
  status: string;
  error: string | null;
  jobId: string | null;
  httpStatus: number | null;
  via: string;
  brief: string | null;
  answer: EvalAnswer | null;
  answerSource: AnswerSource;
  sources: { url: string; title: string }[];
  jobMs: number | null;
  wallMs: number;
  credits: number;
  costUsd: number;
  waves: number | null;
  writeReport?: EvalWriteReport | null;
}

/** A job that did not succeed scores as nothing: the customer got no answer. */
export function buildRow(index: number, question: EvalQuestion, outcome: Outcome): QuestionRow {
  const succeeded = outcome.status === "succeeded";
  const brief = succeeded ? (outcome.brief ?? "") : "";
  const sources = succeeded ? outcome.sources.map(({ url, title }) => ({ url, title })) : [];
  const answer = succeeded ? outcome.answer : null;
  return {
    index,
    id: question.id,
    file: question.file,
    type: question.type,
    hops: question.hops,
    question: question.question,
    expected_answer: question.answer,
    answer_aliases: question.aliases,
    gold_urls: question.goldUrls,
    status: outcome.status,
    error: outcome.error,
    job_id: outcome.jobId,
    http_status: outcome.httpStatus,
    via: outcome.via,
    answer,
    answer_source: outcome.answerSource,
    brief: outcome.brief ?? "",
    sources: outcome.sources.map(({ url, title }) => ({ url, title })),
    metrics: scoreAnswer(
      question,
      brief,
      sources.map((source) => source.url),
      answer,
    ),
    latency: { job_ms: outcome.jobMs, wall_ms: outcome.wallMs },
    credits_charged: outcome.credits,
    cost_usd: outcome.costUsd,
    wave_count: outcome.waves,
    write_report: outcome.writeReport ?? null,
  };
}

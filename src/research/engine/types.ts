import type { ResearchBudgets, ResearchMode } from "../pricing";
import type { ChatModel, Providers } from "../providers/types";
import type { StopReason } from "./budget";
import type { CitationDto, ResearchProgress, ShortAnswer, SourceDto } from "../shapes";
import type { TaskRunner } from "./fan-out";
import type { WriteReport } from "./write-report";
import type { ScoredCandidate } from "./answer-candidates";

export type { CitationDto, ResearchProgress, ShortAnswer, SourceDto };

export interface ResearchInput {
  question: string;
  mode: ResearchMode;
  budgets: ResearchBudgets;
  include_domains?: string[];
  exclude_domains?: string[];
  include_sources: boolean;
  response_schema?: Record<string, unknown> | null;
  /** A reviewed plan (POST /v1/research/plan, maybe edited): wave 1 searches exactly these queries, with no plan call. */
  plan?: { subQuestions: string[]; queries: string[] } | null;
}

/**
 * What a run works with. Either every provider, and the wave's searches and reads run in this
 * isolate (tests, the eval, benchmarks); or a fan-out that runs them elsewhere and knows where
 * to look (the job's queue, whose messages carry the job's collections), plus the model.
 */
export type ResearchDeps = {
  /** Clock in milliseconds (tests drive the deadline with it). */
  now?: () => number;
} & (
  | { /** Build them from configuration with createProviders(). */ providers: Providers; taskRunner?: undefined }
  | { taskRunner: TaskRunner /** The model that plans, reflects and writes; null: extractive. */; llm: ChatModel | null }
);

export interface ResearchHooks {
  onProgress?: (progress: ResearchProgress) => void | Promise<void>;
  /** Each page read for the first time. */
  onSource?: (source: SourceDto) => void | Promise<void>;
  /** Cancels between steps (the job's cancel). */
  signal?: AbortSignal;
  /** Alternative to `signal`: polled between steps. */
  isCancelled?: () => boolean | Promise<boolean>;
  /** Every candidate short answer of the engine's own paths, with its features and probability (the training script collects them). */
  onAnswerCandidates?: (candidates: ScoredCandidate[]) => void;
}

export interface ResearchOutput {
  brief: string;
  /** The short answer and its confidence; null when the evidence does not answer the question. */
  answer: ShortAnswer | null;
  /**
   * Whether anything read addresses the question at all. False: the brief says in one sentence
   * that the sources do not cover it, and the job is charged its metered work, not the mode's price.
   */
  addressed: boolean;
  typed: unknown;
  sources: SourceDto[];
  /** One entry per cited claim of the brief (and per supported top-level field of `typed`). */
  citations: CitationDto[];
  cost_usd: number;
  wave_count: number;
  searches: number;
  pages: number;
  stopped_reason: StopReason;
  /** With a model: what the write stage kept of the model's claims and answer, and why not the rest (write-report.ts). */
  write_report?: WriteReport | null;
}

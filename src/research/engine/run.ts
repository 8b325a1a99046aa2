import type { DomainFilter } from "../providers/domains";
import type { ChatModel } from "../providers/types";
import { Budget } from "./budget";
import { ResearchCancelledError } from "./errors";
import { Evidence } from "./evidence";
import { analyzeQuestion, type QueryAnalysis } from "./question";
import { InProcessTaskRunner, type TaskRunner } from "./fan-out";
import type { ResearchDeps, ResearchHooks, ResearchInput, ResearchProgress } from "./types";

/** One research job as it runs: its envelope, what it has read so far, and the wave it is on. */
export class ResearchRun {
  readonly budget: Budget;
  readonly runner: TaskRunner;
  /** The model that plans, reflects and writes; null: the offline, extractive engine. */
  readonly model: ChatModel | null;
  readonly filter: DomainFilter;
  readonly query: QueryAnalysis;
  readonly evidence: Evidence;
  /** Every query searched so far: a follow-up never repeats one. */
  readonly searched: Set<string>;
  /** The sub-questions a model's plan broke the question into (none offline): what each reflection checks. */
  subQuestions: string[] = [];
  /** Aborts the fan-out of searches and reads: at the gathering deadline, or on cancel. */
  readonly gathering: AbortController;
  /** Pages read (evidence indexes) the model's reflection asked to see more of: its next prompts and the write show them whole, as far as they fit. */
  readonly readMore = new Set<number>();
  /** Every wave it would run was read (no cancel cut it short): what it writes now is the whole research. */
  gatheringComplete = false;

  constructor(
    readonly input: ResearchInput,
    readonly deps: ResearchDeps,
    readonly hooks: ResearchHooks,
  ) {
    const now = deps.now ?? Date.now;
    this.budget = new Budget(input.budgets, now);
    this.runner = deps.taskRunner ?? new InProcessTaskRunner(deps.providers);
    this.model = deps.taskRunner ? deps.llm : deps.providers.llm;
    this.filter = { includeDomains: input.include_domains, excludeDomains: input.exclude_domains };
    this.query = analyzeQuestion(input.question.trim());
    this.evidence = new Evidence();
    this.searched = new Set<string>();
    this.gathering = new AbortController();
  }

  /** The wave under way (0 while planning): progress and a cancellation report it. */
  get wave(): number {
    return this.budget.waves;
  }

  async progress(stage: ResearchProgress["stage"]): Promise<void> {
    const { budget } = this;
    await this.hooks.onProgress?.({ stage, wave: this.wave, searches: budget.searches, pages: budget.pages, cost_usd: budget.costUsd });
  }

  async checkCancelled(): Promise<void> {
    if (this.hooks.signal?.aborted || (await this.hooks.isCancelled?.())) throw new ResearchCancelledError(this.budget.costUsd, this.wave);
  }
}

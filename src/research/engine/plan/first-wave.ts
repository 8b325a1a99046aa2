import type { ChatModel } from "../../providers/types";
import type { TaskRunner } from "../fan-out";
import { ResearchRun } from "../run";
import type { ResearchInput } from "../types";
import { modelPlan } from "./model";
import { planBranches } from "./queries";

/** Planned sub-questions at most, and the longest one (a reviewed plan's edits have the same bounds). */
export const MAX_PLAN_SUB_QUESTIONS = 8;
export const MAX_SUB_QUESTION_CHARS = 500;
/** The longest search query a plan holds (a longer one is a sentence, not a search). */
export const MAX_PLAN_QUERY_CHARS = 200;

/** The plan of a run: the sub-questions (a model's; none offline) and the searches of its first wave. */
export interface FirstWave {
  subQuestions: string[];
  queries: string[];
}

/** A plan as the plan endpoint shows it: who made it and what making it cost the service. */
export interface ComputedPlan extends FirstWave {
  planner: "engine" | "model";
  costUsd: number;
}

/**
 * The first wave of a run: a reviewed plan as given (the customer's plan is searched exactly,
 * with no model call), else the model's plan stage when a model is configured and the call is
 * worth its cost, else the engine's own branches (`planBranches`).
 */
export async function firstWave(run: ResearchRun): Promise<FirstWave & { planner: ComputedPlan["planner"] }> {
  const given = run.input.plan;
  if (given) return { subQuestions: [...given.subQuestions], queries: [...given.queries], planner: "engine" };
  const planned = await modelPlan(run);
  if (planned) return { ...planned, planner: "model" };
  return { subQuestions: [], queries: planBranches(run.query, run.input.budgets.branches), planner: "engine" };
}

/** Planning only plans: a run made to plan never searches or reads. */
const NO_GATHERING: TaskRunner = {
  runSearches: () => Promise.reject(new Error("a plan is computed without searching")),
  readPages: () => Promise.reject(new Error("a plan is computed without reading")),
};

/**
 * The plan a job of `input` would run, computed without running it (POST /v1/research/plan): the
 * same stage the job's first wave runs (firstWave), on a run of the same envelope. With a model it
 * is one plan call, bounded by `timeoutMs` (past it, the engine's own plan stands, as in a job).
 */
export async function computePlan(input: ResearchInput, llm: ChatModel | null, timeoutMs: number): Promise<ComputedPlan> {
  const run = new ResearchRun({ ...input, plan: null }, { taskRunner: NO_GATHERING, llm }, {});
  const timer = setTimeout(() => run.gathering.abort(new Error("deadline")), timeoutMs);
  try {
    const plan = await firstWave(run);
    return { ...plan, costUsd: run.budget.costUsd };
  } finally {
    clearTimeout(timer);
  }
}

import { z } from "zod";
import { llmCostUsd, opCostUsd } from "../../pricing";
import type { Budget } from "../budget";
import type { EvidenceAnalysis } from "../evidence";
import { askModel, estimateTokens, evidenceChars, fitBlocks, type ModelAnswer } from "../model";
import { planPrompt, type Prompt, reflectPrompt } from "../prompts";
import type { ResearchRun } from "../run";

/** The plan's answer at most, in tokens: a handful of sub-questions and queries. */
const PLAN_MAX_TOKENS = 600;
/** A reflection's answer at most, in tokens. */
const REFLECT_MAX_TOKENS = 600;
/**
 * What one reflection may send of what was read (the numbered passages, the searches made and
 * the pages it may pick from): about 6,000 tokens, 4 characters a token. The prompt stays this
 * size however long the run, so a small local model's context holds it and a wave's reflection
 * costs about the same as the first.
 */
export const REFLECT_CONTEXT_CHARS = 24_000;
/** Of that, the list of pages it may pick from and the searches made take at most this share. */
const LISTS_SHARE = 0.25;
/** The best passages of each page shown to the reflection. */
const PASSAGES_PER_PAGE = 6;
/** A query longer than this is a sentence, not a search. */
const MAX_QUERY_CHARS = 200;
const MAX_SUB_QUESTIONS = 8;

const texts = z.array(z.unknown()).transform((items) => items.filter((item): item is string => typeof item === "string"));

const PlanAnswer = z.object({
  sub_questions: texts.optional().default([]),
  queries: texts.refine((queries) => queries.some((query) => query.trim().length > 0), "at least one search query"),
});

const ReflectAnswer = z.object({
  answered: z.boolean(),
  open_sub_question: z.string().nullish(),
  queries: texts.optional().default([]),
  urls: texts.optional().default([]),
  more_of: z.array(z.coerce.number().int()).catch([]).optional().default([]),
});

/** What the model planned: the sub-questions (kept on the run for reflect) and wave 1's searches. */
export interface ModelPlan {
  subQuestions: string[];
  queries: string[];
}

/** What the model made of a wave: answered, or what to search and read next (URLs as it wrote them: the gather stage checks them). */
export interface ModelReflection {
  answered: boolean;
  openSubQuestion: string | null;
  queries: string[];
  urls: string[];
  /** Pages already read (evidence indexes) the model needs more of than their best passages: the next prompts show them whole, as far as they fit. */
  moreOf: number[];
}

/**
 * The model's queries made fit to search: trimmed, spaces collapsed, none empty or sentence-long,
 * none already searched or repeated (case aside), at most `limit`.
 */
export function freshQueries(candidates: string[], alreadySearched: Iterable<string>, limit: number): string[] {
  const seen = new Set([...alreadySearched].map((text) => text.trim().replace(/\s+/g, " ").toLowerCase()));
  const kept: string[] = [];
  for (const candidate of candidates) {
    if (kept.length >= limit) break;
    const text = candidate.trim().replace(/\s+/g, " ");
    const key = text.toLowerCase();
    if (!text || text.length > MAX_QUERY_CHARS || seen.has(key)) continue;
    seen.add(key);
    kept.push(text);
  }
  return kept;
}

/**
 * A plan or reflect call is made only when, paid at its estimate, it leaves the fan-out enough
 * for one more search and one page read: a call that would leave nothing to gather with is
 * better not made (the offline plan and follow-ups cost nothing). The synthesis reserve is never
 * touched either way (the gathering draw).
 */
export function leavesRoomToGather(budget: Budget, prompt: Prompt, maxTokens: number): boolean {
  const call = llmCostUsd(estimateTokens(prompt.system) + estimateTokens(prompt.user), maxTokens);
  return budget.gatheringCostLeftUsd() - call >= opCostUsd("search") + opCostUsd("page_read") - 1e-9 && budget.gatheringTimeLeftMs() > 0;
}

/**
 * The plan stage with a model: the question decomposed into sub-questions and at most `branches`
 * searches for wave 1. Null when there is no model, the call is not worth its cost, or it failed
 * or never gave a usable query: the offline plan (`planBranches`) stands.
 */
export async function modelPlan(run: ResearchRun): Promise<ModelPlan | null> {
  const llm = run.model;
  if (!llm) return null;
  const limit = Math.max(1, run.input.budgets.branches);
  const prompt = planPrompt(run.query.question, limit);
  if (!leavesRoomToGather(run.budget, prompt, PLAN_MAX_TOKENS)) return null;
  const answer = await askModel(
    { llm, budget: run.budget, signal: run.gathering.signal, draw: "gathering" },
    { stage: "plan", prompt, maxTokens: PLAN_MAX_TOKENS, schema: PlanAnswer },
  );
  if (!answer.ok) return fellBack(answer);
  const queries = freshQueries(answer.value.queries, [], limit);
  if (queries.length === 0) return null;
  const subQuestions = answer.value.sub_questions
    .map((text) => text.trim().replace(/\s+/g, " "))
    .filter((text) => text.length > 0 && text.length <= 500)
    .slice(0, MAX_SUB_QUESTIONS);
  return { subQuestions, queries };
}

/**
 * The reflect stage with a model, after a wave: from the question, the planned sub-questions and
 * the numbered passages read so far (the best of each page, in the ranking's order, cut to
 * REFLECT_CONTEXT_CHARS), whether the question is answered and, if not, what to search and which
 * of `pages` (known, not read) to read next. Null when the call is not worth its cost or failed:
 * the offline follow-ups stand.
 */
export async function modelReflect(run: ResearchRun, analysis: EvidenceAnalysis, pages: { url: string; title: string }[]): Promise<ModelReflection | null> {
  const llm = run.model;
  if (!llm) return null;
  const maxQueries = Math.max(1, run.input.budgets.branches * 2);
  const maxUrls = Math.max(1, run.input.budgets.branches);
  const contextChars = evidenceChars(llm, REFLECT_CONTEXT_CHARS / 4, REFLECT_MAX_TOKENS);
  const listBudget = Math.floor(contextChars * LISTS_SHARE);
  const searched = takeLines([...run.searched], listBudget / 2);
  const pageLines = takeLines(
    pages.map((page) => (page.title && page.title !== page.url ? `- ${page.url} (${page.title})` : `- ${page.url}`)),
    listBudget - searched.join("\n").length,
  );
  const blocks = analysis.ranked.map((entry, index) => {
    const best = entry.best
      .slice(0, run.readMore.has(entry.doc.index) ? PASSAGES_PER_PAGE * 4 : PASSAGES_PER_PAGE)
      .sort((a, b) => a.passage.position - b.passage.position)
      .map((item) => item.passage.text);
    const text = best.length > 0 ? best : entry.doc.sentences.slice(0, 3);
    return `[${index + 1}] ${entry.doc.title} (${entry.doc.url})\n${text.join(" ")}`;
  });
  const used = searched.join("\n").length + pageLines.join("\n").length;
  const passages = fitBlocks(blocks, contextChars - used);
  const prompt = reflectPrompt({ question: run.query.question, subQuestions: run.subQuestions, passages, searched, pages: pageLines, maxQueries, maxUrls });
  if (!leavesRoomToGather(run.budget, prompt, REFLECT_MAX_TOKENS)) return null;
  const answer = await askModel(
    { llm, budget: run.budget, signal: run.gathering.signal, draw: "gathering" },
    { stage: "reflect", prompt, maxTokens: REFLECT_MAX_TOKENS, schema: ReflectAnswer },
  );
  if (!answer.ok) return fellBack(answer);
  const { answered, open_sub_question, queries, urls, more_of } = answer.value;
  return {
    answered,
    openSubQuestion: open_sub_question?.trim() || null,
    queries: answered ? [] : freshQueries(queries, run.searched, maxQueries),
    urls: answered ? [] : urls.map((url) => url.trim()).filter(Boolean),
    moreOf: more_of.flatMap((n) => analysis.ranked[n - 1]?.doc.index ?? []).slice(0, maxUrls),
  };
}

/** Lines in order while they fit in `maxChars` (with their line breaks). */
function takeLines(lines: string[], maxChars: number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const line of lines) {
    if (used + line.length + 1 > maxChars) break;
    kept.push(line);
    used += line.length + 1;
  }
  return kept;
}

/** A failed call: the stage falls back to its offline version. An operator sees why in the logs (not for a stopped job or an envelope that could not pay). */
function fellBack(answer: Extract<ModelAnswer<unknown>, { ok: false }>): null {
  if (answer.reason === "provider" || answer.reason === "invalid")
    console.warn(`research engine: the model's answer was not used, falling back (${answer.reason}): ${answer.detail}`);
  return null;
}

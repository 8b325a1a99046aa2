import { modeDeepens, modeHasCritic } from "../pricing";
import { type AnswerOutcome, answerQuestion } from "./answer";
import { addressesQuestion, analyzeEvidence, type EvidenceAnalysis } from "./evidence";
import { extractiveBrief, type Synthesis } from "./write";
import { type FoundBeforeFailure, NoEvidenceError, ResearchCancelledError } from "./errors";
import { gatherEvidence } from "./gather";
import { llmBrief, type ModelShortAnswer } from "./write";
import type { ModelContext } from "./model";
import { ResearchRun } from "./run";
import { type CompiledSchema, compileSchema, typedOutput, type TypedOutput } from "./write";
import type { ResearchDeps, ResearchHooks, ResearchInput, ResearchOutput, ShortAnswer } from "./types";
import type { WriteReport } from "./write-report";
import { type PriorEvidence, seedPriorEvidence } from "./prior";

/**
 * Runs one research job inside its budget envelope (a follow-up: from the evidence `options.prior` holds):
 * plan -> wave 1 searches -> choose and read sources -> gap analysis -> follow-up waves ->
 * synthesis (-> critic for pro and max) -> typed output.
 *
 * Throws InvalidSchemaError (before any work), ResearchCancelledError, NoEvidenceError or
 * TypedOutputError; everything else it reports in the output.
 */
export async function runResearch(
  input: ResearchInput,
  deps: ResearchDeps,
  hooks: ResearchHooks = {},
  options: { prior?: PriorEvidence | null } = {},
): Promise<ResearchOutput> {
  const schema = input.response_schema ? compileSchema(input.response_schema) : null;
  const run = new ResearchRun(input, deps, hooks);
  try {
    // A follow-up starts from the evidence of the jobs before it: their pages are read already.
    if (options.prior) await seedPriorEvidence(run, options.prior);
    return await research(run, schema);
  } catch (error) {
    // Stopped before its end: the customer still gets what was read, as a brief marked partial.
    if (error instanceof ResearchCancelledError) error.found ??= partialFindings(run);
    throw error;
  }
}

async function research(run: ResearchRun, schema: CompiledSchema | null): Promise<ResearchOutput> {
  const { budget } = run;

  const stopped = await gatherEvidence(run);
  // Gathering ended (a cancel that cuts it short throws from it): the pages read are the whole
  // research now, so a stop no longer yields a brief of them (see partialFindings).
  run.gatheringComplete = true;
  await run.checkCancelled();
  if (run.evidence.docs.length === 0) {
    throw new NoEvidenceError(
      stopped === "deadline" ? "The deadline passed before any source could be read." : "No source matched the question.",
      budget.costUsd,
    );
  }

  const { analysis, synthesis, answer, addressed, writeReport } = await synthesize(run);
  const typed = schema ? await writeTyped(run, schema, analysis, synthesis, answer) : null;
  const citations = [...synthesis.citations, ...(typed?.citations ?? [])];
  await run.checkCancelled();
  await run.progress("done");
  return {
    brief: synthesis.brief,
    answer,
    addressed,
    typed: typed ? typed.value : null,
    sources: synthesis.sources,
    citations,
    cost_usd: budget.costUsd,
    wave_count: budget.waves,
    searches: budget.searches,
    pages: budget.pages,
    stopped_reason: stopped,
    ...(writeReport ? { write_report: writeReport } : {}),
  };
}

/**
 * The brief of a run stopped while it was still gathering, from the pages read so far: extractive
 * only, so it costs no model call and no credit (the charge stays the work done), and it cites
 * only what was read. Null when nothing was read or nothing read addresses the question, and once
 * gathering was complete: a brief of every page the research read is the research itself, and a
 * cancel on the "synthesizing" event must not buy it at the metered price.
 */
function partialFindings(run: ResearchRun): FoundBeforeFailure | null {
  if (run.gatheringComplete || run.evidence.docs.length === 0) return null;
  const { synthesis, addressed } = extractiveSynthesis(run, false);
  if (!addressed || synthesis.sources.length === 0) return null;
  return { brief: synthesis.brief, sources: synthesis.sources, citations: synthesis.citations };
}

/** The engine's own brief of everything read (no model): the analysis, whether it addresses the question, its answer and the brief. */
function extractiveSynthesis(run: ResearchRun, critic: boolean) {
  const { query, evidence } = run;
  const analysis = analyzeEvidence(evidence, query);
  const options = briefOptions(run.input, critic);
  const addressed = addressesQuestion(query, analysis, evidence);
  const outcome: AnswerOutcome = addressed ? answerQuestion(query, analysis, evidence) : { answer: null, partial: null, chain: { docs: [], links: [] } };
  run.hooks.onAnswerCandidates?.(outcome.candidates ?? []);
  return { analysis, options, addressed, outcome, synthesis: extractiveBrief(query, analysis, outcome, addressed, options) };
}

/** How many sources a brief cites (a third of the pages the mode reads, 3 to 12) and what it includes. */
function briefOptions(input: ResearchInput, critic: boolean) {
  return {
    maxSources: Math.min(12, Math.max(3, Math.ceil(input.budgets.max_pages / 3))),
    includeSummaries: input.include_sources,
    critic,
    deepens: modeDeepens(input.mode),
  };
}

/** The brief from everything read: extractive, then written by the model when there is one. */
async function synthesize(
  run: ResearchRun,
): Promise<{ analysis: EvidenceAnalysis; synthesis: Synthesis; answer: ShortAnswer | null; addressed: boolean; writeReport: WriteReport | null }> {
  const { input, budget, query } = run;
  await run.progress("synthesizing");
  await run.checkCancelled();
  const extractive = extractiveSynthesis(run, modeHasCritic(input.mode));
  const { analysis, options, addressed, outcome } = extractive;
  let synthesis: Synthesis = extractive.synthesis;
  budget.charge("extractive_synthesis");
  let modelAnswer: ModelShortAnswer | null = null;
  let writeReport: WriteReport | null = null;
  if (run.model && synthesis.sources.length > 0) {
    await run.checkCancelled();
    const written = await withModel(run, (model) =>
      llmBrief(model, query, analysis, synthesis, options, { beforeCritic: () => run.progress("critic"), readMore: run.readMore }),
    );
    synthesis = written.synthesis;
    modelAnswer = written.answer;
    writeReport = written.report;
  }
  return { analysis, synthesis, answer: shortAnswer(outcome, synthesis, modelAnswer), addressed, writeReport };
}

/**
 * A synthesis-stage use of the model: its calls may draw on the synthesis reserve, and are aborted
 * by the job's cancel or its deadline.
 */
async function withModel<T>(run: ResearchRun, use: (model: ModelContext) => Promise<T>): Promise<T> {
  const abort = new AbortController();
  const onCancel = () => abort.abort(run.hooks.signal?.reason);
  if (run.hooks.signal?.aborted) onCancel();
  run.hooks.signal?.addEventListener("abort", onCancel);
  const timer = setTimeout(() => abort.abort(new Error("deadline")), Math.max(0, run.budget.timeLeftMs()));
  try {
    return await use({ llm: run.model!, budget: run.budget, signal: abort.signal, draw: "synthesis" });
  } finally {
    clearTimeout(timer);
    run.hooks.signal?.removeEventListener("abort", onCancel);
  }
}

/**
 * The short answer as the result publishes it: its citations are the sources (in the brief's
 * numbering) of the passages it rests on. The model's answer where its sources support it (see
 * llmBrief), else the engine's own. A model's brief may drop a source; an answer left with none
 * of its sources is not stated.
 */
function shortAnswer(outcome: AnswerOutcome, synthesis: Synthesis, model: ModelShortAnswer | null): ShortAnswer | null {
  const stated = model ? withCitations(model, synthesis) : null;
  if (stated) return stated;
  // An open question's answer is the overview's first sentence: quotes of what each source said,
  // so `medium` (it says what was said, not whether it settles the question).
  const answer =
    outcome.answer ?? (synthesis.overview ? { text: synthesis.overview.text, confidence: "medium" as const, basis: synthesis.overview.passages } : null);
  return answer ? withCitations(answer, synthesis) : null;
}

function withCitations(
  answer: { text: string; confidence: ShortAnswer["confidence"]; probability?: number; basis: { doc: number }[] },
  synthesis: Synthesis,
): ShortAnswer | null {
  const docs = new Set(answer.basis.map((passage) => passage.doc));
  const citations = synthesis.cited.flatMap((doc, index) => (docs.has(doc.index) ? [index] : []));
  // Never an answer resting on, or quoting, a document the result does not list.
  if (citations.length === 0 || citations.length < docs.size) return null;
  // Rounded down, so a published 0.95 is never a `medium` just below it.
  const probability = answer.probability === undefined ? {} : { probability: Math.floor(answer.probability * 1000) / 1000 };
  return { text: answer.text, confidence: answer.confidence, ...probability, citations };
}

/** The brief re-cast into the caller's response_schema, with the basis of each value. */
async function writeTyped(
  run: ResearchRun,
  schema: CompiledSchema,
  analysis: EvidenceAnalysis,
  synthesis: Synthesis,
  answer: ShortAnswer | null,
): Promise<TypedOutput> {
  await run.checkCancelled();
  await run.progress("typed_output");
  const context = { query: run.query, analysis, synthesis, budget: run.budget, answer };
  if (!run.model) return await typedOutput(schema, { ...context, model: null });
  return await withModel(run, (model) => typedOutput(schema, { ...context, model }));
}

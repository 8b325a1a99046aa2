import { modeHasCritic } from "../pricing";
import { type AnswerOutcome, answerQuestion } from "./answer";
import { addressesQuestion, analyzeEvidence, type EvidenceAnalysis } from "./evidence";
import { extractiveBrief, type Synthesis } from "./write";
import { NoEvidenceError } from "./errors";
import { gatherEvidence } from "./gather";
import { llmBrief } from "./write";
import { ResearchRun } from "./run";
import { type CompiledSchema, compileSchema, typedOutput, type TypedOutput } from "./write";
import type { ResearchDeps, ResearchHooks, ResearchInput, ResearchOutput, ShortAnswer } from "./types";

/**
 * Runs one research job inside its budget envelope:
 * plan -> wave 1 searches -> choose and read sources -> gap analysis -> follow-up waves ->
 * synthesis (-> critic for pro and max) -> typed output.
 *
 * Throws InvalidSchemaError (before any work), ResearchCancelledError, NoEvidenceError or
 * TypedOutputError; everything else it reports in the output.
 */
export async function runResearch(input: ResearchInput, deps: ResearchDeps, hooks: ResearchHooks = {}): Promise<ResearchOutput> {
  const schema = input.response_schema ? compileSchema(input.response_schema) : null;
  const run = new ResearchRun(input, deps, hooks);
  const { budget } = run;

  const stopped = await gatherEvidence(run);
  await run.checkCancelled();
  if (run.evidence.docs.length === 0) {
    throw new NoEvidenceError(stopped === "deadline" ? "The deadline passed before any source could be read." : "No source matched the question.", budget.costUsd);
  }

  const { analysis, synthesis, answer, addressed } = await synthesize(run);
  const typed = schema ? await writeTyped(run, schema, analysis, synthesis) : null;
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
  };
}

/** The brief from everything read: extractive, then rewritten by the model when there is one. */
async function synthesize(run: ResearchRun): Promise<{ analysis: EvidenceAnalysis; synthesis: Synthesis; answer: ShortAnswer | null; addressed: boolean }> {
  const { input, deps, hooks, budget, query } = run;
  await run.progress("synthesizing");
  await run.checkCancelled();
  const analysis = analyzeEvidence(run.evidence, query);
  const critic = modeHasCritic(input.mode);
  const options = { maxSources: Math.min(12, Math.max(3, Math.ceil(input.budgets.max_pages / 3))), includeSummaries: input.include_sources, critic };
  const addressed = addressesQuestion(query, analysis, run.evidence);
  const outcome: AnswerOutcome = addressed ? answerQuestion(query, analysis, run.evidence) : { answer: null, partial: null, chain: { docs: [], links: [] } };
  let synthesis: Synthesis = extractiveBrief(query, analysis, outcome, addressed, options);
  budget.charge("extractive_synthesis");
  if (deps.providers.llm && synthesis.sources.length > 0) {
    if (critic) await run.progress("critic");
    await run.checkCancelled();
    synthesis = await llmBrief(deps.providers.llm, query, analysis, synthesis, budget, options, run.gathering.signal.aborted ? undefined : hooks.signal);
  }
  return { analysis, synthesis, answer: shortAnswer(outcome, synthesis), addressed };
}

/**
 * The short answer as the result publishes it: its citations are the sources (in the brief's
 * numbering) of the passages it rests on. A model's brief may drop a source; an answer left with
 * none of its sources is not stated.
 */
function shortAnswer(outcome: AnswerOutcome, synthesis: Synthesis): ShortAnswer | null {
  // An open question's answer is the overview's first sentence: quotes of what each source said,
  // so `medium` (it says what was said, not whether it settles the question).
  const answer = outcome.answer ?? (synthesis.overview ? { text: synthesis.overview.text, confidence: "medium" as const, basis: synthesis.overview.passages } : null);
  if (!answer) return null;
  const docs = new Set(answer.basis.map((passage) => passage.doc));
  const citations = synthesis.cited.flatMap((doc, index) => (docs.has(doc.index) ? [index] : []));
  if (citations.length === 0) return null;
  return { text: answer.text, confidence: answer.confidence, citations };
}

/** The brief re-cast into the caller's response_schema, with the basis of each value. */
async function writeTyped(run: ResearchRun, schema: CompiledSchema, analysis: EvidenceAnalysis, synthesis: Synthesis): Promise<TypedOutput> {
  await run.checkCancelled();
  await run.progress("typed_output");
  return await typedOutput(schema, { query: run.query, analysis, synthesis, llm: run.deps.providers.llm, budget: run.budget, signal: run.hooks.signal });
}

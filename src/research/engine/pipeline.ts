import { domainAllowed, domainOf } from "../providers/domains";
import type { SearchHit } from "../providers/types";
import { modeHasCritic } from "../pricing";
import { analyzeEvidence } from "./analysis";
import { Budget, type StopReason } from "./budget";
import { extractiveBrief, type Synthesis } from "./brief";
import { ResearchCancelledError, NoEvidenceError } from "./errors";
import { Evidence } from "./evidence";
import { llmBrief } from "./llm-synthesis";
import { followUpQueries, planBranches } from "./plan";
import { analyzeQuestion } from "./query";
import { chooseSources, type QueryHits } from "./select";
import { InProcessTaskRunner } from "./tasks";
import { compileSchema, typedOutput } from "./typed";
import { typedCitations } from "./typed-basis";
import type { ResearchDeps, ResearchHooks, ResearchInput, ResearchOutput, ResearchProgress } from "./types";

/** Hits asked of each search: enough to look past the first few, few enough to stay cheap. */
const HITS_PER_SEARCH = 8;

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
  const now = deps.now ?? Date.now;
  const budget = new Budget(input.budgets, now);
  const runner = deps.taskRunner ?? new InProcessTaskRunner(deps.providers);
  const filter = { includeDomains: input.include_domains, excludeDomains: input.exclude_domains };
  const query = analyzeQuestion(input.question.trim());
  const evidence = new Evidence();
  const searched = new Set<string>();
  let wave = 0;

  const progress = async (stage: ResearchProgress["stage"]) => {
    await hooks.onProgress?.({ stage, wave, searches: budget.searches, pages: budget.pages, cost_usd: budget.costUsd });
  };
  const checkCancelled = async () => {
    if (hooks.signal?.aborted || (await hooks.isCancelled?.())) throw new ResearchCancelledError(budget.costUsd, wave);
  };

  // The fan-out stops at the gathering deadline (wall clock minus the synthesis reserve).
  const gathering = new AbortController();
  const timer = setTimeout(() => gathering.abort(new Error("deadline")), Math.max(0, budget.gatheringTimeLeftMs()));
  const onCancel = () => gathering.abort(hooks.signal?.reason);
  hooks.signal?.addEventListener("abort", onCancel);

  let stopped: StopReason = "max_waves";
  let queries = planBranches(query, input.budgets.branches);
  try {
    await progress("planning");
    while (true) {
      await checkCancelled();
      const blocker = budget.waveBlocker();
      if (blocker) {
        stopped = blocker;
        break;
      }
      if (queries.length === 0) {
        stopped = "answered";
        break;
      }
      budget.startWave();
      wave = budget.waves;

      // Searches: each one gated and charged as it is scheduled.
      const scheduled: string[] = [];
      for (const text of queries) {
        if (budget.searchBlocker()) break;
        budget.charge("search");
        scheduled.push(text);
        searched.add(text);
      }
      await progress("searching");
      const searchResults = await runner.runSearches(
        scheduled.map((text, index) => ({
          id: `w${wave}s${index}`,
          query: { query: text, limit: HITS_PER_SEARCH, includeDomains: input.include_domains, excludeDomains: input.exclude_domains },
        })),
        gathering.signal,
      );
      await checkCancelled();
      const results: QueryHits[] = searchResults.map((result, index) => ({
        query: scheduled[index]!,
        // Every hit is re-checked: a provider may ignore or only partly support domain filters.
        hits: result.ok ? result.value.filter((hit: SearchHit) => domainAllowed(hit.domain || domainOf(hit.url), filter)) : [],
      }));

      // Reads: this wave's share of the pages left, within what the cost gate allows.
      const wavesLeft = Math.max(1, input.budgets.max_waves - wave + 1);
      const pagesLeft = input.budgets.max_pages - budget.pages;
      const share = wave === input.budgets.max_waves ? pagesLeft : Math.ceil(pagesLeft / wavesLeft);
      const candidates = chooseSources(results, { limit: share, alreadyRead: (url) => evidence.has(url), filter });
      const reads = [];
      let readBlocked: StopReason | null = null;
      for (const candidate of candidates) {
        readBlocked = budget.readBlocker();
        if (readBlocked) break;
        budget.charge("page_read");
        reads.push(candidate);
      }
      await progress("reading");
      const pages = await runner.readPages(reads.map((candidate, index) => ({ id: `w${wave}r${index}`, url: candidate.hit.url })), gathering.signal);
      const addedDocs = [];
      for (const [index, result] of pages.entries()) {
        const candidate = reads[index]!;
        if (!result.ok || !result.value || !result.value.text.trim()) continue;
        // A cached read was charged as a fresh one when it was scheduled; refund the difference.
        if (result.value.cached) budget.refundCachedRead();
        addedDocs.push(evidence.add(result.value, candidate.hit.domain, wave, candidate.queries));
      }
      // Reported together once the wave's pages are in: a burst the job can stream at once.
      for (const doc of addedDocs) await hooks.onSource?.({ url: doc.url, title: doc.title, domain: doc.domain, summary: null });
      const added = addedDocs.length;
      await progress("analyzing");
      if (added === 0) {
        stopped = readBlocked ?? "no_new_evidence";
        break;
      }
      const analysis = analyzeEvidence(evidence, query);
      queries = followUpQueries(query, analysis, searched, Math.max(1, input.budgets.branches * 2));
    }
  } finally {
    clearTimeout(timer);
    hooks.signal?.removeEventListener("abort", onCancel);
  }
  await checkCancelled();

  if (evidence.docs.length === 0) {
    throw new NoEvidenceError(stopped === "deadline" ? "The deadline passed before any source could be read." : "No source matched the question.", budget.costUsd);
  }

  await progress("synthesizing");
  await checkCancelled();
  const analysis = analyzeEvidence(evidence, query);
  const critic = modeHasCritic(input.mode);
  const options = { maxSources: Math.min(12, Math.max(3, Math.ceil(input.budgets.max_pages / 3))), includeSummaries: input.include_sources, critic };
  let synthesis: Synthesis = extractiveBrief(query, analysis, options);
  budget.charge("extractive_synthesis");
  if (deps.providers.llm && synthesis.sources.length > 0) {
    if (critic) await progress("critic");
    await checkCancelled();
    synthesis = await llmBrief(deps.providers.llm, query, analysis, synthesis, budget, options, gathering.signal.aborted ? undefined : hooks.signal);
  }

  let typed: unknown = null;
  if (schema) {
    await checkCancelled();
    await progress("typed_output");
    typed = await typedOutput(schema, { query, analysis, synthesis, llm: deps.providers.llm, budget, signal: hooks.signal });
  }
  const citations = [...synthesis.citations, ...(schema ? typedCitations(typed, synthesis) : [])];
  await checkCancelled();
  await progress("done");
  return {
    brief: synthesis.brief,
    typed,
    sources: synthesis.sources,
    citations,
    cost_usd: budget.costUsd,
    wave_count: budget.waves,
    searches: budget.searches,
    pages: budget.pages,
    stopped_reason: stopped,
  };
}

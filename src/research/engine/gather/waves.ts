import { domainAllowed, domainOf } from "../../providers/domains";
import type { SearchHit } from "../../providers/types";
import { analyzeEvidence } from "../evidence";
import type { StopReason } from "../budget";
import { followUpQueries, nextHops, planBranches } from "../plan";
import type { ResearchRun } from "../run";
import { chooseSources, type QueryHits } from "./select";

/** Hits asked of each search: enough to look past the first few, few enough to stay cheap. */
const HITS_PER_SEARCH = 8;

/**
 * The waves of evidence gathering: wave 1 searches the planned branches, each later wave the
 * follow-ups the gap analysis of everything read so far asks for. Returns why it stopped.
 */
export async function gatherEvidence(run: ResearchRun): Promise<StopReason> {
  const { input, hooks, budget, query, evidence, gathering } = run;
  // The fan-out stops at the gathering deadline (wall clock minus the synthesis reserve).
  const timer = setTimeout(() => gathering.abort(new Error("deadline")), Math.max(0, budget.gatheringTimeLeftMs()));
  const onCancel = () => gathering.abort(hooks.signal?.reason);
  hooks.signal?.addEventListener("abort", onCancel);

  let queries = planBranches(query, input.budgets.branches);
  try {
    await run.progress("planning");
    while (true) {
      await run.checkCancelled();
      const blocker = budget.waveBlocker();
      if (blocker) return blocker;
      if (queries.length === 0) return "answered";
      budget.startWave();

      const results = await searchWave(run, queries);
      const { added, readBlocked } = await readWave(run, results);
      await run.progress("analyzing");
      if (added === 0) return readBlocked ?? "no_new_evidence";
      const hops = nextHops(query, evidence);
      if (hops.closed) return "answered";
      const analysis = analyzeEvidence(evidence, query);
      queries = followUpQueries(query, analysis, run.searched, Math.max(1, input.budgets.branches * 2), hops.targets);
    }
  } finally {
    clearTimeout(timer);
    hooks.signal?.removeEventListener("abort", onCancel);
  }
}

/** Searches: each one gated and charged as it is scheduled. */
async function searchWave(run: ResearchRun, queries: string[]): Promise<QueryHits[]> {
  const { input, budget, wave, filter } = run;
  const scheduled: string[] = [];
  for (const text of queries) {
    if (budget.searchBlocker()) break;
    budget.charge("search");
    scheduled.push(text);
    run.searched.add(text);
  }
  await run.progress("searching");
  const searchResults = await run.runner.runSearches(
    scheduled.map((text, index) => ({
      id: `w${wave}s${index}`,
      query: { query: text, limit: HITS_PER_SEARCH, includeDomains: input.include_domains, excludeDomains: input.exclude_domains },
    })),
    run.gathering.signal,
  );
  await run.checkCancelled();
  return searchResults.map((result, index) => ({
    query: scheduled[index]!,
    // Every hit is re-checked: a provider may ignore or only partly support domain filters.
    hits: result.ok ? result.value.filter((hit: SearchHit) => domainAllowed(hit.domain || domainOf(hit.url), filter)) : [],
  }));
}

/**
 * Reads: this wave's share of the pages left, within what the cost gate allows. Returns how many
 * new sources it added, and the gate that stopped the reads short, if one did.
 */
async function readWave(run: ResearchRun, results: QueryHits[]): Promise<{ added: number; readBlocked: StopReason | null }> {
  const { input, hooks, budget, evidence, wave, filter } = run;
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
  await run.progress("reading");
  const pages = await run.runner.readPages(reads.map((candidate, index) => ({ id: `w${wave}r${index}`, url: candidate.hit.url })), run.gathering.signal);
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
  return { added: addedDocs.length, readBlocked };
}

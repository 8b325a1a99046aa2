import { domainAllowed, domainOf } from "../../providers/domains";
import type { SearchHit } from "../../providers/types";
import { analyzeEvidence, sourceMetadata } from "../evidence";
import type { StopReason } from "../budget";
import type { EvidenceAnalysis } from "../evidence";
import { coverageQueries, followUpQueries, firstWave, modelReflect, nextHops } from "../plan";
import { modeDeepens } from "../../pricing";
import { unique } from "../language";
import { readCoverage } from "../write";
import type { ResearchRun } from "../run";
import { asksOfSeveralSpeakers, asksWhoFirst, type QueryAnalysis } from "../question";
import { KnownPages } from "./known-urls";
import { type Candidate, chooseSources, type QueryHits } from "./select";

/** Hits asked of each search: enough to look past the first few, few enough to stay cheap. */
export const HITS_PER_SEARCH = 8;
/**
 * A question asking of a period ("between 1940 and 1970") takes this many times the hits: a search
 * has no date filter, and the pages its titles date outside the period are read last (select.ts).
 * So does one asking of several speakers ("Which presidents mentioned …") or of the first of them
 * ("Which president first mentioned …"): one speaker's pages fill the first hits, and each
 * speaker's best is read first.
 */
const WIDE_HITS = 3;

/** The question is answered across speakers: several ("Which presidents …"), or whichever was first ("Which president first …"). */
function acrossSpeakers(query: QueryAnalysis): boolean {
  return asksOfSeveralSpeakers(query) || asksWhoFirst(query);
}

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

  let queries: string[] = [];
  // Pages a model's reflection asked for: read first in the next wave.
  let asked: Candidate[] = [];
  const known = new KnownPages();
  try {
    await run.progress("planning");
    // A reviewed plan (input.plan) is searched as given; else the model's plan, or the engine's own.
    const planned = await firstWave(run);
    // A follow-up searches only what the jobs before it did not: their queries count as searched.
    queries = planned.queries.filter((text) => !run.searched.has(text));
    run.subQuestions = planned.subQuestions;
    while (true) {
      // Gathering that has nothing left to do ends before the cancel check: a cancel after the last
      // page was read then stops the writing, and never buys a "partial" brief of every page.
      const blocker = budget.waveBlocker();
      if (blocker) return blocker;
      if (queries.length === 0 && asked.length === 0) return "answered";
      await run.checkCancelled();
      budget.startWave();

      const results = await searchWave(run, queries);
      known.recordHits(results);
      const { added, readBlocked } = await readWave(run, results, asked);
      await run.progress("analyzing");
      if (added === 0) return readBlocked ?? "no_new_evidence";
      const hops = nextHops(query, evidence);
      // A hop chain read end to end is an answer stated in the sentences read: no call needed.
      if (hops.closed) return "answered";
      const analysis = analyzeEvidence(evidence, query);
      const limit = Math.max(1, input.budgets.branches * 2);
      const reflection = await reflect(run, analysis, known);
      if (reflection === "answered") {
        queries = [];
        asked = [];
      } else if (reflection) {
        ({ queries, asked } = reflection);
      } else {
        asked = [];
        queries = followUpQueries(query, analysis, run.searched, limit, hops.targets);
      }
      // Pro and max search what is still uncovered (a side, a hop, a decade) before anything else.
      if (modeDeepens(input.mode))
        queries = unique([...coverageQueries(query, readCoverage(query, analysis, evidence), run.searched, limit), ...queries]).slice(0, limit);
      if (reflection === "answered" && queries.length === 0) return "answered";
    }
  } finally {
    clearTimeout(timer);
    hooks.signal?.removeEventListener("abort", onCancel);
  }
}

/**
 * The reflect stage with a model (none without one): after a wave that a next wave could follow,
 * the model says whether the question is answered, or what to search and read next. Its queries
 * are never ones already searched; its pages only ones the run knows and has not read (search
 * hits, links in the pages read), the domain lists allow, at most `branches`. Null when there is
 * no model, no next wave, or the call failed or asked for nothing usable: the offline follow-ups
 * stand.
 */
async function reflect(
  run: ResearchRun,
  analysis: EvidenceAnalysis,
  known: KnownPages,
): Promise<"answered" | { queries: string[]; asked: Candidate[] } | null> {
  const { budget, evidence, filter, input } = run;
  if (!run.model || budget.waveBlocker()) return null;
  await run.progress("reflecting");
  const reflection = await modelReflect(run, analysis, known.unread(evidence, filter));
  if (!reflection) return null;
  for (const doc of reflection.moreOf) run.readMore.add(doc);
  if (reflection.answered) return "answered";
  const asked = known.resolve(reflection.urls, evidence, filter, Math.max(1, input.budgets.branches));
  if (reflection.queries.length === 0 && asked.length === 0) return null;
  return { queries: reflection.queries, asked };
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
      query: {
        query: text,
        limit: run.query.period || acrossSpeakers(run.query) ? HITS_PER_SEARCH * WIDE_HITS : HITS_PER_SEARCH,
        includeDomains: input.include_domains,
        excludeDomains: input.exclude_domains,
      },
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
async function readWave(run: ResearchRun, results: QueryHits[], asked: Candidate[] = []): Promise<{ added: number; readBlocked: StopReason | null }> {
  const { input, hooks, budget, evidence, wave, filter } = run;
  const wavesLeft = Math.max(1, input.budgets.max_waves - wave + 1);
  const pagesLeft = input.budgets.max_pages - budget.pages;
  const share = wave === input.budgets.max_waves ? pagesLeft : Math.ceil(pagesLeft / wavesLeft);
  // The pages a reflection asked for come first, on top of the wave's share of search hits;
  // each is still gated and charged below like any read.
  const first = asked.filter((candidate) => !evidence.has(candidate.hit.url));
  const askedUrls = new Set(first.map((candidate) => candidate.hit.url));
  const candidates = [
    ...first,
    ...chooseSources(results, {
      limit: share,
      alreadyRead: (url) => evidence.has(url) || askedUrls.has(url),
      filter,
      period: run.query.period,
      spreadSpeakersOf: acrossSpeakers(run.query) ? run.query.question : undefined,
    }),
  ];
  const reads = [];
  let readBlocked: StopReason | null = null;
  for (const candidate of candidates) {
    readBlocked = budget.readBlocker();
    if (readBlocked) break;
    budget.charge("page_read");
    reads.push(candidate);
  }
  await run.progress("reading");
  const pages = await run.runner.readPages(
    reads.map((candidate, index) => ({ id: `w${wave}r${index}`, url: candidate.hit.url })),
    run.gathering.signal,
  );
  const addedDocs = [];
  for (const [index, result] of pages.entries()) {
    const candidate = reads[index]!;
    if (!result.ok || !result.value?.text.trim()) continue;
    // A cached read was charged as a fresh one when it was scheduled; refund the difference.
    if (result.value.cached) budget.refundCachedRead();
    addedDocs.push(evidence.add(result.value, candidate.hit.domain, wave, candidate.queries));
  }
  // Reported together once the wave's pages are in: a burst the job can stream at once.
  for (const doc of addedDocs) await hooks.onSource?.({ url: doc.url, title: doc.title, domain: doc.domain, ...sourceMetadata(doc), summary: null });
  return { added: addedDocs.length, readBlocked };
}

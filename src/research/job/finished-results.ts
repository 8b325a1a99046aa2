import type { ResearchResult } from "./job-state";

/**
 * Finished jobs' results this isolate has read, by job id with their owner. A terminal job's
 * result is written once, when it settles, and never changes (job-store.ts writes the final row
 * only while the job is open), so serving it from memory is never stale: a busy poller of a
 * finished job costs no D1 read. Only the owner is served from here; anyone else falls through to
 * the owner-scoped query (404). Bounded by the results' size, least recently read out first.
 */
export class FinishedResults {
  private readonly entries = new Map<string, { userId: string; result: ResearchResult; bytes: number }>();
  private bytes = 0;

  constructor(private readonly maxBytes = 8 * 1024 * 1024) {}

  get(userId: string, jobId: string): ResearchResult | undefined {
    const entry = this.entries.get(jobId);
    if (!entry || entry.userId !== userId) return undefined;
    this.entries.delete(jobId);
    this.entries.set(jobId, entry);
    return entry.result;
  }

  /** `bytes`: the size of the stored result (its JSON), what the bound counts. */
  set(userId: string, jobId: string, result: ResearchResult, bytes: number): void {
    if (bytes > this.maxBytes / 4) return; // one huge result must not empty the cache
    const known = this.entries.get(jobId);
    if (known) this.bytes -= known.bytes;
    this.entries.delete(jobId);
    this.entries.set(jobId, { userId, result, bytes });
    this.bytes += bytes;
    for (const [id, oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(id);
      this.bytes -= oldest.bytes;
    }
  }
}

/** This isolate's cache: module state lives as long as the isolate. */
export const finishedResults = new FinishedResults();

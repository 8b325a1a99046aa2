import { domainAllowed, domainOf } from "../providers/domains";
import { sourceMetadata } from "./evidence";
import type { ResearchRun } from "./run";

/** A page an earlier job of the thread read: its text as read, so a follow-up never reads it again. */
export interface PriorPage {
  url: string;
  title: string;
  text: string;
  /** The host as the earlier job recorded it (a collection document's is its collection's name). */
  domain: string;
  published_at?: string;
  author?: string;
  /** The job that read it. */
  job_id: string;
}

/** What a follow-up starts from: every page its thread read, in reading order, and every query it searched. */
export interface PriorEvidence {
  pages: PriorPage[];
  searched: string[];
}

/**
 * Seeds a run with the evidence of the jobs before it: their pages become its first documents (so
 * old sources come first in its numbering, and the waves only read pages not among them), and
 * their queries count as searched (a follow-up never repeats one). Reported as sources of the job,
 * so its stream and its `sources` while it runs show what it starts from. Nothing is charged.
 * A page the follow-up's include_domains or exclude_domains rule out is left out.
 */
export async function seedPriorEvidence(run: ResearchRun, prior: PriorEvidence): Promise<void> {
  const seeded = [];
  for (const page of prior.pages) {
    const domain = page.domain || domainOf(page.url);
    // The follow-up's own domain lists hold for old sources too.
    if (!page.text.trim() || run.evidence.has(page.url) || !domainAllowed(domain, run.filter)) continue;
    seeded.push(run.evidence.add(page, domain, 0, []));
  }
  for (const query of prior.searched) run.searched.add(query);
  for (const doc of seeded) await run.hooks.onSource?.({ url: doc.url, title: doc.title, domain: doc.domain, ...sourceMetadata(doc), summary: null });
}

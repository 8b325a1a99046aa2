import type { ResearchResult } from "../research/service";

/** What a run keeps to compare the next run with: its sources, its short answer and its claims. */
export interface RunSnapshot {
  sources: { url: string; title: string }[];
  answer: string | null;
  /** The brief's cited sentences, as written (markers removed); compared normalised. */
  claims: string[];
}

export interface MonitorDiff {
  previous_run_id: string;
  changed: boolean;
  sources_added: { url: string; title: string }[];
  sources_removed: { url: string; title: string }[];
  answer: { changed: boolean; previous: string | null; current: string | null };
  claims_added: string[];
  claims_withdrawn: string[];
}

const CITATION = /\s*\[\d+\](?:\s*\[\d+\])*/g;

/** Lower case, citation markers and punctuation at the ends gone, spaces collapsed: two wordings that differ only so are one claim. */
export function normaliseClaim(text: string): string {
  return text
    .replace(CITATION, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.;:!?]+$/, "")
    .trim()
    .toLowerCase();
}

/**
 * The claims of a brief (the one Markdown form research/shapes.ts describes): each sentence of a
 * paragraph or bullet that ends with citations `[n]`; headings, group titles and the open
 * questions (which cite nothing) are not claims.
 */
export function briefClaims(brief: string | null): string[] {
  if (!brief) return [];
  const claims: string[] = [];
  for (const raw of brief.split("\n")) {
    const line = raw.replace(/^- /, "").trim();
    if (!line || line.startsWith("#") || /^\*\*.*\*\*$/.test(line)) continue;
    // A sentence ends after its citations and closing punctuation.
    for (const sentence of line.match(/[^.!?]*?(?:\[\d+\])+[^.!?\s]*[.!?]?|[^.!?]+[.!?]?/g) ?? []) {
      if (!/\[\d+\]/.test(sentence)) continue;
      const text = sentence.replace(CITATION, "").replace(/\s+/g, " ").trim();
      if (text && !claims.some((claim) => normaliseClaim(claim) === normaliseClaim(text))) claims.push(text);
    }
  }
  return claims;
}

export function snapshotOf(result: ResearchResult): RunSnapshot {
  return {
    sources: result.sources.map((source) => ({ url: source.url, title: source.title })),
    answer: result.answer?.text ?? null,
    claims: briefClaims(result.brief),
  };
}

/** What changed from `previous` to `current`: sources by URL, the short answer, claims by normalised text. */
export function diffSnapshots(previousRunId: string, previous: RunSnapshot, current: RunSnapshot): MonitorDiff {
  const before = new Set(previous.sources.map((source) => source.url));
  const after = new Set(current.sources.map((source) => source.url));
  const oldClaims = new Set(previous.claims.map(normaliseClaim));
  const newClaims = new Set(current.claims.map(normaliseClaim));
  const answerChanged = (previous.answer ?? "").trim().toLowerCase() !== (current.answer ?? "").trim().toLowerCase();
  const diff = {
    previous_run_id: previousRunId,
    sources_added: current.sources.filter((source) => !before.has(source.url)),
    sources_removed: previous.sources.filter((source) => !after.has(source.url)),
    answer: { changed: answerChanged, previous: previous.answer, current: current.answer },
    claims_added: current.claims.filter((claim) => !oldClaims.has(normaliseClaim(claim))),
    claims_withdrawn: previous.claims.filter((claim) => !newClaims.has(normaliseClaim(claim))),
  };
  const changed = diff.sources_added.length + diff.sources_removed.length + diff.claims_added.length + diff.claims_withdrawn.length > 0 || answerChanged;
  return { ...diff, changed };
}

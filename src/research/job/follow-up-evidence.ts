import type { PriorEvidence, PriorPage } from "../engine";
import type { JobRecord } from "./job-state";

// A follow-up's evidence (issue 45), kept in the job object's SQLite storage: what a job hands to
// its follow-ups (the pages it read and the queries it searched) and what a follow-up was handed
// by the job it follows (the `prior` table, written once before its first run, so a resumed run
// and any follow-up of the follow-up read it from here instead of asking again).

/** The `prior` table: one row per page or query a follow-up was handed. */
export function createPriorTable(sql: SqlStorage): void {
  sql.exec("CREATE TABLE IF NOT EXISTS prior (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, value TEXT NOT NULL)");
}

/** The prior evidence this object keeps (a follow-up's, loaded once; none otherwise). */
export function storedPrior(sql: SqlStorage): PriorEvidence {
  const pages: PriorPage[] = [];
  const searched: string[] = [];
  for (const row of sql.exec<{ kind: string; value: string }>("SELECT kind, value FROM prior ORDER BY seq")) {
    if (row.kind === "page") pages.push(JSON.parse(row.value) as PriorPage);
    else searched.push(row.value);
  }
  return { pages, searched };
}

/** Keeps the evidence a follow-up was handed, replacing any earlier copy, in one transaction. */
export function storePrior(storage: DurableObjectStorage, prior: PriorEvidence): void {
  storage.transactionSync(() => {
    storage.sql.exec("DELETE FROM prior");
    for (const page of prior.pages) storage.sql.exec("INSERT INTO prior (kind, value) VALUES ('page', ?)", JSON.stringify(page));
    for (const query of prior.searched) storage.sql.exec("INSERT INTO prior (kind, value) VALUES ('query', ?)", query);
  });
}

/**
 * What a follow-up of this job starts from: every page it read (those its own thread handed it,
 * then the ones it read, in order) with the text as read, and every query searched. Null unless
 * the job succeeded. Read from this object's storage: the fan-out's answers and its prior rows.
 */
export function followUpEvidenceOf(sql: SqlStorage, record: JobRecord | null): PriorEvidence | null {
  if (record?.status !== "succeeded") return null;
  const { pages, searched } = storedPrior(sql);
  const domains = new Map(record.sources.map((source) => [source.url, source.domain]));
  const seen = new Set(pages.map((page) => page.url));
  const rows = sql.exec<{ key: string; outcome: string }>("SELECT key, outcome FROM tasks WHERE outcome IS NOT NULL ORDER BY dispatched_at, rowid").toArray();
  for (const row of rows) {
    const outcome = JSON.parse(row.outcome) as { ok: boolean; value?: unknown };
    if (row.key.startsWith("search:")) {
      const query = (JSON.parse(row.key.slice("search:".length)) as { query?: unknown }).query;
      if (typeof query === "string" && !searched.includes(query)) searched.push(query);
      continue;
    }
    if (!row.key.startsWith("read:") || !outcome.ok) continue;
    const page = outcome.value as { url: string; title: string; text: string; published_at?: string; author?: string } | null;
    const url = JSON.parse(row.key.slice("read:".length)) as string;
    if (!page?.text?.trim() || seen.has(url)) continue;
    seen.add(url);
    pages.push({
      url,
      title: page.title,
      text: page.text,
      domain: domains.get(url) ?? "",
      ...(page.published_at ? { published_at: page.published_at } : {}),
      ...(page.author ? { author: page.author } : {}),
      job_id: record.spec.id,
    });
  }
  return { pages, searched };
}

import { plainText } from "../../lib/plain-text";
import { domainOf, normalizeDomain } from "./domains";
import type { Page, PageReader } from "./types";

/** The local corpus in D1: ingestion (add or replace by url), removal by domain, stats, reads. */

export interface CorpusDocumentInput {
  url: string;
  title: string;
  text: string;
  /** Defaults to the host of the url (without "www."). */
  domain?: string;
}

/** D1 caps a batch's size; documents can be long, so batches stay small. */
const INGEST_BATCH = 25;

export async function ingestDocuments(db: D1Database, documents: CorpusDocumentInput[], now = new Date()): Promise<number> {
  const at = now.toISOString();
  const statement = db.prepare(
    "INSERT INTO corpus_documents (url, title, domain, text, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) " +
      "ON CONFLICT(url) DO UPDATE SET title = excluded.title, domain = excluded.domain, text = excluded.text, updated_at = excluded.updated_at",
  );
  // The last copy of a url in one request wins, as if they had been sent one by one.
  const byUrl = new Map<string, CorpusDocumentInput>();
  for (const document of documents) byUrl.set(document.url, document);
  const rows = [...byUrl.values()];
  for (let start = 0; start < rows.length; start += INGEST_BATCH) {
    await db.batch(
      rows.slice(start, start + INGEST_BATCH).map((document) => {
        const domain = normalizeDomain(document.domain ?? domainOf(document.url)) || "local";
        return statement.bind(document.url, plainText(document.title) || document.url, domain, document.text.trim(), at, at);
      }),
    );
  }
  return rows.length;
}

export async function deleteDomain(db: D1Database, domain: string): Promise<number> {
  // meta.changes would also count the FTS index rows the trigger deletes; RETURNING counts documents.
  const { results } = await db.prepare("DELETE FROM corpus_documents WHERE domain = ? RETURNING id").bind(normalizeDomain(domain)).all();
  return results.length;
}

export interface CorpusStats {
  documents: number;
  domains: { domain: string; documents: number }[];
}

export async function corpusStats(db: D1Database): Promise<CorpusStats> {
  const { results } = await db
    .prepare("SELECT domain, COUNT(*) AS documents FROM corpus_documents GROUP BY domain ORDER BY documents DESC, domain")
    .all<{ domain: string; documents: number }>();
  return { documents: results.reduce((sum, row) => sum + row.documents, 0), domains: results };
}

async function corpusDocument(db: D1Database, url: string): Promise<{ url: string; title: string; text: string } | null> {
  return db.prepare("SELECT url, title, text FROM corpus_documents WHERE url = ?").bind(url).first();
}

/** Reads corpus documents straight from D1 (no fetch, never cached: D1 is the cache). */
export class CorpusReader implements PageReader {
  constructor(private readonly db: D1Database) {}

  async read(url: string): Promise<Page | null> {
    const row = await corpusDocument(this.db, url);
    return row ? { url: row.url, title: plainText(row.title), text: row.text, cached: false } : null;
  }
}

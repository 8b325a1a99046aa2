import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The local document corpus: the search backend when no web search provider is configured.
 * The integer primary key is the rowid of the FTS5 index `corpus_fts` (external content table,
 * kept in sync by triggers in the `corpus_fts` migration), so search joins by rowid.
 */
export const corpusDocuments = sqliteTable(
  "corpus_documents",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    url: text("url").notNull().unique(),
    title: text("title").notNull(),
    domain: text("domain").notNull(),
    text: text("text").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("corpus_documents_domain_idx").on(t.domain)],
);

export type CorpusDocumentRow = typeof corpusDocuments.$inferSelect;

/**
 * Pages read from the web, shared across jobs: the same URL is fetched at most once per 24 h.
 * Failed reads are cached too (status "error"), so a dead page does not cost a fetch per job.
 */
export const pageCache = sqliteTable(
  "page_cache",
  {
    url: text("url").primaryKey(),
    status: text("status", { enum: ["ok", "error"] }).notNull(),
    title: text("title").notNull(),
    text: text("text").notNull(),
    /** The page's date and author from its metadata (issue 42); null when it states none. */
    publishedAt: text("published_at"),
    author: text("author"),
    contentType: text("content_type"),
    error: text("error"),
    fetchedAt: text("fetched_at").notNull(),
  },
  (t) => [index("page_cache_fetched_idx").on(t.fetchedAt)],
);

export type PageCacheRow = typeof pageCache.$inferSelect;

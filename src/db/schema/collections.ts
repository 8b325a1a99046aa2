import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/**
 * An account's own documents, which research can be pointed at (`collections` in a research
 * request) instead of the shared corpus or the web. `document_count` and `bytes` are kept by
 * triggers on collection_documents (migration 0009).
 */
export const collections = sqliteTable(
  "collections",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description"),
    documentCount: integer("document_count").notNull().default(0),
    /** UTF-8 bytes of the documents' text. */
    bytes: integer("bytes").notNull().default(0),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("collections_user_created_idx").on(t.userId, t.createdAt, t.id)],
);

export type CollectionRow = typeof collections.$inferSelect;

/**
 * A document of a collection. `key` is what identifies it for replacement: its url, or its title
 * when it has none (re-posting either replaces the document).
 */
export const collectionDocuments = sqliteTable(
  "collection_documents",
  {
    id: text("id").primaryKey(),
    collectionId: text("collection_id")
      .notNull()
      .references(() => collections.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    key: text("key").notNull(),
    url: text("url"),
    title: text("title").notNull(),
    metadataJson: text("metadata_json"),
    text: text("text").notNull(),
    bytes: integer("bytes").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("collection_documents_key_idx").on(t.collectionId, t.key), index("collection_documents_list_idx").on(t.collectionId, t.createdAt, t.id)],
);

export type CollectionDocumentRow = typeof collectionDocuments.$inferSelect;

/**
 * The searchable passages of a document (its sections, long ones split with overlap). The integer
 * id is the rowid of the FTS5 index `collection_fts` (external content, kept by triggers).
 */
export const collectionChunks = sqliteTable(
  "collection_chunks",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    documentId: text("document_id")
      .notNull()
      .references(() => collectionDocuments.id, { onDelete: "cascade" }),
    collectionId: text("collection_id").notNull(),
    position: integer("position").notNull(),
    /** The document's title and the chunk's heading: what the title weight of bm25 applies to. */
    title: text("title").notNull(),
    text: text("text").notNull(),
  },
  (t) => [index("collection_chunks_document_idx").on(t.documentId), index("collection_chunks_collection_idx").on(t.collectionId)],
);

/**
 * One paid ingest call: its ledger entry, and the answer it gave (replayed for the same
 * Idempotency-Key and body). Written in the same batch as the documents, and only if the ledger
 * entry was: `ledger_entry_id` is read from ledger_entries in that batch, and a missing entry
 * (short balance, or the key already used) makes it NULL, which aborts the whole batch.
 */
export const ingestCharges = sqliteTable(
  "ingest_charges",
  {
    ledgerEntryId: text("ledger_entry_id").primaryKey().notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    collectionId: text("collection_id").notNull(),
    idempotencyKey: text("idempotency_key"),
    requestHash: text("request_hash").notNull(),
    credits: integer("credits").notNull(),
    bytes: integer("bytes").notNull(),
    resultJson: text("result_json").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("ingest_charges_user_idem_idx").on(t.userId, t.idempotencyKey)],
);

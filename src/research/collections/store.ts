import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { collectionDocuments, type CollectionDocumentRow, type CollectionRow, collections } from "../../db/schema/collections";
import { ApiError } from "../../lib/errors";
import { plainText } from "../../lib/plain-text";
import type { Paging } from "../../lib/paging";
import type { CollectionDto, DocumentSummaryDto } from "./shapes";

/** A collection's documents and chunks in D1. Every lookup is scoped to its owner. */

const _encoder = new TextEncoder();
const _MAX_METADATA_BYTES = 10_000;
const _KEY_LOOKUP_CHUNK = 90;

export function collectionDto(row: CollectionRow): CollectionDto {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    document_count: row.documentCount,
    bytes: row.bytes,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

function documentSummary(row: Omit<CollectionDocumentRow, "text" | "userId" | "collectionId" | "key">): DocumentSummaryDto {
  return {
    id: row.id,
    title: plainText(row.title), // rows written before titles were made plain at ingest
    url: row.url,
    bytes: row.bytes,
    metadata: row.metadataJson ? (JSON.parse(row.metadataJson) as Record<string, unknown>) : null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export async function createCollection(db: Db, userId: string, input: { name: string; description?: string }): Promise<CollectionDto> {
  const at = new Date().toISOString();
  const row = {
    id: crypto.randomUUID(),
    userId,
    name: input.name,
    description: input.description ?? null,
    documentCount: 0,
    bytes: 0,
    createdAt: at,
    updatedAt: at,
  };
  await db.insert(collections).values(row);
  return collectionDto(row);
}

/** The caller's collection, or 404 (another account's collection is as unknown as a missing one). */
export async function ownCollection(db: Db, userId: string, id: string): Promise<CollectionRow> {
  const row = await db
    .select()
    .from(collections)
    .where(and(eq(collections.id, id), eq(collections.userId, userId)))
    .get();
  if (!row) throw ApiError.notFound("Collection");
  return row;
}

export async function listCollections(db: Db, userId: string, page: Paging): Promise<CollectionDto[]> {
  const rows = await db
    .select()
    .from(collections)
    .where(eq(collections.userId, userId))
    .orderBy(desc(collections.createdAt), desc(collections.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map(collectionDto);
}

export async function updateCollection(db: Db, userId: string, id: string, changes: { name?: string; description?: string | null }): Promise<CollectionDto> {
  // Scoped to the owner: another account's collection updates nothing and is 404.
  const [row] = await db
    .update(collections)
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      updatedAt: new Date().toISOString(),
    })
    .where(and(eq(collections.id, id), eq(collections.userId, userId)))
    .returning();
  if (!row) throw ApiError.notFound("Collection");
  return collectionDto(row);
}

/** Deletes the collection with its documents and chunks (foreign keys cascade; the FTS index follows by trigger). */
export async function deleteCollection(db: Db, userId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(collections)
    .where(and(eq(collections.id, id), eq(collections.userId, userId)))
    .returning({ id: collections.id });
  if (deleted.length === 0) throw ApiError.notFound("Collection");
}

/** Which of `ids` the user owns (a research request may name only its caller's collections). */
export async function ownedCollections(db: Db, userId: string, ids: string[]): Promise<CollectionRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(collections)
    .where(and(eq(collections.userId, userId), inArray(collections.id, ids)));
}

const summaryColumns = {
  id: collectionDocuments.id,
  title: collectionDocuments.title,
  url: collectionDocuments.url,
  bytes: collectionDocuments.bytes,
  metadataJson: collectionDocuments.metadataJson,
  createdAt: collectionDocuments.createdAt,
  updatedAt: collectionDocuments.updatedAt,
};

export async function listDocuments(db: Db, userId: string, collectionId: string, page: Paging): Promise<DocumentSummaryDto[]> {
  await ownCollection(db, userId, collectionId);
  const rows = await db
    .select(summaryColumns)
    .from(collectionDocuments)
    .where(and(eq(collectionDocuments.collectionId, collectionId), eq(collectionDocuments.userId, userId)))
    .orderBy(desc(collectionDocuments.createdAt), desc(collectionDocuments.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map(documentSummary);
}

export async function getDocument(db: Db, userId: string, collectionId: string, documentId: string) {
  const row = await db
    .select({ ...summaryColumns, text: collectionDocuments.text })
    .from(collectionDocuments)
    .where(and(eq(collectionDocuments.id, documentId), eq(collectionDocuments.collectionId, collectionId), eq(collectionDocuments.userId, userId)))
    .get();
  if (!row) throw ApiError.notFound("Document");
  return { ...documentSummary(row), text: row.text };
}

export async function deleteDocument(db: Db, userId: string, collectionId: string, documentId: string): Promise<void> {
  const deleted = await db
    .delete(collectionDocuments)
    .where(and(eq(collectionDocuments.id, documentId), eq(collectionDocuments.collectionId, collectionId), eq(collectionDocuments.userId, userId)))
    .returning({ id: collectionDocuments.id });
  if (deleted.length === 0) throw ApiError.notFound("Document");
}

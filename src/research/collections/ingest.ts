import { and, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import { collectionChunks, collectionDocuments, collections, ingestCharges } from "../../db/schema/collections";
import { ledgerEntries } from "../../db/schema/ledger";
import { sha256Hex } from "../../lib/crypto";
import { isNotNullViolation } from "../../lib/db-errors";
import { ApiError } from "../../lib/errors";
import { checkIdempotencyKey } from "../../lib/idempotency-key";
import { plainText } from "../../lib/plain-text";
import { currentPlan } from "../../services/billing/subscriptions";
import { getBalance, ledgerChangeStatements } from "../../services/ledger";
import { opCredits } from "../pricing";
import { capacityHolds, checkCapacity, type IngestGrowth } from "./capacity";
import { chunkDocument } from "./chunking";
import { ingestCredits, storageQuotaBytes } from "./limits";
import { type DocumentInput, type IngestResultDto, MAX_DOCUMENT_BYTES } from "./shapes";
import { ownCollection } from "./store";

/**
 * Adding documents to a collection (POST /collections/{id}/documents): chunked and indexed,
 * charged by size in the same D1 batch that writes them, replacing a document of the same url (or
 * title), idempotent by key. The collection's CRUD and reads are in store.ts.
 */

const encoder = new TextEncoder();
const MAX_METADATA_BYTES = 10_000;
const KEY_LOOKUP_CHUNK = 90;

/** POST /collections/{id}/documents: checks the Idempotency-Key, sizes the storage quota from the caller's plan, ingests. */
export async function ingest(
  db: Db,
  userId: string,
  collectionId: string,
  documents: DocumentInput[],
  idempotencyKey: string | undefined,
): Promise<IngestResultDto> {
  checkIdempotencyKey(idempotencyKey);
  const { plan } = await currentPlan(db, userId);
  return ingestDocuments(db, userId, collectionId, documents, { idempotencyKey, storageQuotaBytes: storageQuotaBytes(plan.id) });
}

/** What identifies a document for replacement: its url, or its (plain) title when it has none. */
function documentKey(input: DocumentInput): string {
  return input.url ? `url:${input.url}` : `title:${input.title}`;
}

export interface IngestOptions {
  idempotencyKey?: string;
  /** Bytes of text the account may keep (its plan's). */
  storageQuotaBytes: number;
}

/**
 * Writes documents (new ones, or replacing those with the same url or title) and their chunks,
 * and charges the call (`ingest_mb`), in one D1 batch: every document is checked first, the
 * batch is one transaction, and its guard row (ingest_charges) aborts it when the ledger entry
 * was not written, so documents are never kept unpaid nor paid for unwritten. The same
 * Idempotency-Key and body replay the first answer without writing or charging again.
 */
export async function ingestDocuments(db: Db, userId: string, collectionId: string, inputs: DocumentInput[], options: IngestOptions): Promise<IngestResultDto> {
  const collection = await ownCollection(db, userId, collectionId);
  // The last copy of a key in one call wins, as if they had been sent one by one.
  // Titles are kept as plain text: markup (`T<script>…</script>`) never reaches a list or a source.
  const byKey = new Map<string, DocumentInput>();
  for (const raw of inputs) {
    const input = { ...raw, title: plainText(raw.title) };
    if (!input.title) throw ApiError.invalid(`The title "${raw.title.slice(0, 100)}" has no text once its markup is removed.`);
    byKey.set(documentKey(input), input);
  }
  const prepared = [...byKey].map(([key, input]) => {
    const text = input.text.trim();
    const bytes = encoder.encode(text).length;
    if (bytes > MAX_DOCUMENT_BYTES) {
      throw new ApiError(
        "payload_too_large",
        `"${input.title}" has ${bytes} bytes of text; a document may have at most ${MAX_DOCUMENT_BYTES} (2 MB). Split it into parts.`,
      );
    }
    const metadataJson = input.metadata ? JSON.stringify(input.metadata) : null;
    if (metadataJson && encoder.encode(metadataJson).length > MAX_METADATA_BYTES) {
      throw ApiError.invalid(`The metadata of "${input.title}" is over 10 KB.`);
    }
    return { key, input, text, bytes, metadataJson };
  });
  const requestHash = await sha256Hex(
    JSON.stringify([collectionId, prepared.map((doc) => [doc.key, doc.input.title, doc.text, doc.input.url ?? null, doc.metadataJson])]),
  );
  if (options.idempotencyKey) {
    const replayed = await replayIngest(db, userId, options.idempotencyKey, requestHash);
    if (replayed) return replayed;
  }

  const before = new Map<string, { id: string; key: string; bytes: number }>();
  // D1 binds at most 100 parameters a statement: the keys are looked up in chunks.
  for (let start = 0; start < prepared.length; start += KEY_LOOKUP_CHUNK) {
    const keys = prepared.slice(start, start + KEY_LOOKUP_CHUNK).map((doc) => doc.key);
    const rows = await db
      .select({ id: collectionDocuments.id, key: collectionDocuments.key, bytes: collectionDocuments.bytes })
      .from(collectionDocuments)
      .where(and(eq(collectionDocuments.collectionId, collectionId), inArray(collectionDocuments.key, keys)));
    for (const row of rows) before.set(row.key, row);
  }
  const bytes = prepared.reduce((sum, doc) => sum + doc.bytes, 0);
  const growth: IngestGrowth = {
    userId,
    collectionId,
    added: prepared.filter((doc) => !before.has(doc.key)).length,
    growth: bytes - prepared.reduce((sum, doc) => sum + (before.get(doc.key)?.bytes ?? 0), 0),
    quotaBytes: options.storageQuotaBytes,
  };
  await checkCapacity(db, growth);

  const at = new Date().toISOString();
  const statements: BatchItem<"sqlite">[] = [];
  const written: IngestResultDto["documents"] = [];
  for (const doc of prepared) {
    const id = before.get(doc.key)?.id ?? crypto.randomUUID();
    const title = doc.input.title.trim();
    const url = doc.input.url ?? null;
    statements.push(
      db
        .insert(collectionDocuments)
        .values({
          id,
          collectionId,
          userId,
          key: doc.key,
          url,
          title,
          metadataJson: doc.metadataJson,
          text: doc.text,
          bytes: doc.bytes,
          createdAt: at,
          updatedAt: at,
        })
        .onConflictDoUpdate({
          target: [collectionDocuments.collectionId, collectionDocuments.key],
          set: { url, title, metadataJson: doc.metadataJson, text: doc.text, bytes: doc.bytes, updatedAt: at },
        }),
      db.delete(collectionChunks).where(eq(collectionChunks.documentId, id)),
    );
    // Chunked only now: a replayed or refused call never pays for it.
    for (const chunk of chunkDocument(doc.text)) {
      statements.push(
        db
          .insert(collectionChunks)
          .values({ documentId: id, collectionId, position: chunk.position, title: chunk.heading ? `${title} — ${chunk.heading}` : title, text: chunk.text }),
      );
    }
    written.push({ id, title, url, bytes: doc.bytes });
  }
  statements.push(db.update(collections).set({ updatedAt: at }).where(eq(collections.id, collectionId)));
  const result: IngestResultDto = { ingested: written.length, documents: written };

  const credits = ingestCredits(bytes, opCredits("ingest_mb"));
  const charge = ledgerChangeStatements(db, userId, {
    kind: "ingest",
    delta: -credits,
    idempotencyKey: options.idempotencyKey ? `ingest:${options.idempotencyKey}` : null,
    relatedId: collectionId,
    note: `${written.length} document(s), ${bytes} bytes, into "${collection.name}"`,
  });
  const guard = db.insert(ingestCharges).values({
    // NULL (and the batch aborted) unless the ledger entry above was written and, with this call's
    // documents written before it, the collection and the account are still within their bounds.
    ledgerEntryId: sql`(SELECT ${ledgerEntries.id} FROM ${ledgerEntries} WHERE ${ledgerEntries.id} = ${charge.id} AND ${capacityHolds(growth)})`,
    userId,
    collectionId,
    idempotencyKey: options.idempotencyKey ?? null,
    requestHash,
    credits,
    bytes,
    resultJson: JSON.stringify(result),
    createdAt: at,
  });
  try {
    // The guard last: it reads the counts with this call's documents in them.
    await db.batch([charge.insert, charge.update, ...statements, guard]);
  } catch (error) {
    // Nothing was written. The key was used meanwhile (replay it: a concurrent duplicate can also
    // meet the first call's documents before the guard, as a unique conflict), other calls filled
    // the collection or the quota meanwhile (say which), or the balance is short.
    const replayed = options.idempotencyKey ? await replayIngest(db, userId, options.idempotencyKey, requestHash) : undefined;
    if (replayed) return replayed;
    if (!isNotNullViolation(error, "ingest_charges.ledger_entry_id")) throw error;
    await checkCapacity(db, growth);
    throw new ApiError("insufficient_credits", `Adding ${bytes} bytes costs ${credits} credits; the balance is ${await getBalance(db, userId)}.`);
  }
  return result;
}

/** The first answer for this Idempotency-Key, or 422 when it came with another body; undefined when the key is new. */
async function replayIngest(db: Db, userId: string, key: string, requestHash: string): Promise<IngestResultDto | undefined> {
  const row = await db
    .select()
    .from(ingestCharges)
    .where(and(eq(ingestCharges.userId, userId), eq(ingestCharges.idempotencyKey, key)))
    .get();
  if (!row) return undefined;
  if (row.requestHash !== requestHash) throw new ApiError("idempotency_key_reused", "This Idempotency-Key was already used with a different request body.");
  return JSON.parse(row.resultJson) as IngestResultDto;
}

import { eq, type SQL, sql, sum } from "drizzle-orm";
import type { Db } from "../../db/client";
import { collections } from "../../db/schema/collections";
import { ApiError } from "../../lib/errors";
import { MAX_DOCUMENTS_PER_COLLECTION } from "./limits";

/**
 * A collection's document cap and an account's storage quota (issue 39). Checking them before the
 * write was not enough: 8 concurrent uploads of 100 onto 9,900 documents each saw 9,900 and all
 * wrote (10,700). So they are checked twice: before the batch, to answer early with the numbers,
 * and inside it, after its writes, as part of the guard that lets the batch commit
 * (`capacityHolds`): D1 runs a batch as one transaction, one at a time, so what the guard reads is
 * the count and the bytes with every other committed call in them, and a call that would pass
 * either bound rolls back whole (documents and charge).
 */
export interface IngestGrowth {
  userId: string;
  collectionId: string;
  /** Documents the call adds (those that replace one by url or title are not counted). */
  added: number;
  /** Bytes of text the call adds, less those of the documents it replaces. */
  growth: number;
  /** Bytes of text the account may keep (its plan's). */
  quotaBytes: number;
}

/** 400 document_limit_exceeded or 402 storage_limit_exceeded when the call does not fit what is stored now. */
export async function checkCapacity(db: Db, call: IngestGrowth): Promise<void> {
  const collection = await db.select({ documentCount: collections.documentCount }).from(collections).where(eq(collections.id, call.collectionId)).get();
  const documents = collection?.documentCount ?? 0;
  if (documents + call.added > MAX_DOCUMENTS_PER_COLLECTION) {
    throw new ApiError(
      "document_limit_exceeded",
      `A collection holds at most ${MAX_DOCUMENTS_PER_COLLECTION} documents; this one has ${documents} and the call adds ${call.added}.`,
    );
  }
  const stored = Number(
    (
      await db
        .select({ bytes: sum(collections.bytes) })
        .from(collections)
        .where(eq(collections.userId, call.userId))
        .get()
    )?.bytes ?? 0,
  );
  if (stored + call.growth > call.quotaBytes) {
    throw new ApiError(
      "storage_limit_exceeded",
      `Your plan keeps ${call.quotaBytes} bytes of documents; you have ${stored} and this call adds ${call.growth}. Delete documents or move to a bigger plan.`,
    );
  }
}

/**
 * True, read after the batch's writes (the triggers of migration 0009 keep each collection's count
 * and bytes), when the collection is within the cap and the account within its quota.
 */
export function capacityHolds(call: IngestGrowth): SQL {
  return sql`(SELECT ${collections.documentCount} FROM ${collections} WHERE ${collections.id} = ${call.collectionId}) <= ${MAX_DOCUMENTS_PER_COLLECTION}
    AND (SELECT coalesce(sum(${collections.bytes}), 0) FROM ${collections} WHERE ${collections.userId} = ${call.userId}) <= ${call.quotaBytes}`;
}

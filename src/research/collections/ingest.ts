import type { Db } from "../../db/client";
import { checkIdempotencyKey } from "../../lib/idempotency-key";
import { currentPlan } from "../../services/billing/subscriptions";
import { storageQuotaBytes } from "./limits";
import type { DocumentInput, IngestResultDto } from "./shapes";
import { ingestDocuments } from "./store";

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

import type { Db } from "../../db/client";
import { ApiError } from "../../lib/errors";
import { currentPlan } from "../../services/billing/subscriptions";
import { IDEMPOTENCY_KEY_FORMAT } from "../submit";
import { storageQuotaBytes } from "./limits";
import type { DocumentInput, IngestResultDto } from "./shapes";
import { ingestDocuments } from "./store";

/** POST /collections/{id}/documents: checks the Idempotency-Key, sizes the storage quota from the caller's plan, ingests. */
export async function ingest(db: Db, userId: string, collectionId: string, documents: DocumentInput[], idempotencyKey: string | undefined): Promise<IngestResultDto> {
  if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY_FORMAT.test(idempotencyKey)) {
    throw ApiError.invalid("Invalid request: Idempotency-Key must be 1 to 255 printable ASCII characters.");
  }
  const { plan } = await currentPlan(db, userId);
  return ingestDocuments(db, userId, collectionId, documents, { idempotencyKey, storageQuotaBytes: storageQuotaBytes(plan.id) });
}

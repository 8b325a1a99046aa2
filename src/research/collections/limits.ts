/**
 * What an account may keep in its collections. Documents per collection bound a search's work;
 * total bytes by plan bound storage (402 storage_limit_exceeded: a bigger plan lifts it).
 */
export const MAX_DOCUMENTS_PER_COLLECTION = 10_000;

const MB = 1024 * 1024;
/** Bytes of document text an account may keep, by plan id; a plan not listed gets the Free plan's. */
export const STORAGE_BYTES_BY_PLAN: Record<string, number> = {
  free: 50 * MB,
  developer: 1024 * MB,
  startup: 5 * 1024 * MB,
  growth: 20 * 1024 * MB,
};

export function storageQuotaBytes(planId: string): number {
  return STORAGE_BYTES_BY_PLAN[planId] ?? STORAGE_BYTES_BY_PLAN.free!;
}

/** Credits an ingest call costs: 2 credits a MB of text (the `ingest_mb` op price), in whole credits, at least one. */
export function ingestCredits(bytes: number, creditsPerMb: number): number {
  return Math.max(1, Math.ceil((bytes / MB) * creditsPerMb));
}

import { PDF_LIMITS } from "../providers/pdf/limits";

/**
 * What an account may keep in its collections. Documents per collection bound a search's work;
 * total bytes by plan bound storage (402 storage_limit_exceeded: a bigger plan lifts it).
 */
export const MAX_DOCUMENTS_PER_COLLECTION = 10_000;

const MB = 1024 * 1024;
/** Bytes of document text an account may keep, by plan id; a plan not listed gets the Free plan's. */
const STORAGE_BYTES_BY_PLAN: Record<string, number> = {
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

/**
 * What reading one upload may cost (issue 26): a Worker isolate has 128 MB and one thread that
 * every caller of the isolate shares, so each bound is checked before the work it bounds, and a
 * file that passes one answers 413 payload_too_large naming the bound (nothing written or charged).
 */
export const UPLOAD_LIMITS = {
  /** An uploaded file's size at most. */
  fileBytes: 20 * MB,
  /** A request body of the documents route at most (both forms), judged by its Content-Length before it is read. */
  requestBytes: 21 * MB,
  /** The PDF bounds (providers/pdf/limits.ts), shared with PDFs read from the web. */
  pdfPages: PDF_LIMITS.pages,
  pdfStreamDecodedBytes: PDF_LIMITS.streamDecodedBytes,
  pdfDecodedBytes: PDF_LIMITS.decodedBytes,
  pdfImagePixels: PDF_LIMITS.imagePixels,
  pdfReadMs: PDF_LIMITS.uploadReadMs,
} as const;

import { hmacSha256Hex } from "../lib/crypto";

/** `X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body>` with the account's signing secret. */
export async function signatureHeader(secret: string, rawBody: string): Promise<string> {
  return `sha256=${await hmacSha256Hex(secret, rawBody)}`;
}

/** Exponential backoff between delivery attempts: 1, 2, 4, ... minutes, at most 6 hours. */
export function retryDelaySecs(attempt: number): number {
  return Math.min(60 * 2 ** (attempt - 1), 6 * 3600);
}

/** Attempts before a delivery is given up: 8 attempts span about 2 hours (≥ 6 attempts over ≥ 1 hour). */
export const MAX_DELIVERY_ATTEMPTS = 8;
export const DELIVERY_TIMEOUT_MS = 10_000;

import { hmacSha256Hex } from "../lib/crypto";

/** `X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body>` with the account's signing secret. */
export async function signatureHeader(secret: string, rawBody: string): Promise<string> {
  return `sha256=${await hmacSha256Hex(secret, rawBody)}`;
}

/**
 * The Standard Webhooks key of a `whsec_…` secret: the base64 decoding of what follows `whsec_`.
 * Secrets made before lifecycle webhooks are base64url (`-`, `_`, no padding): they are read as
 * the same bytes (an off-the-shelf verifier needs `-`→`+`, `_`→`/` first, or a rotated secret).
 */
export function standardWebhooksKey(secret: string): Uint8Array {
  const encoded = secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret;
  const base64 = encoded.replaceAll("-", "+").replaceAll("_", "/").replace(/=+$/, "");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` (Standard Webhooks). */
export async function standardSignatureHeader(secret: string, id: string, timestamp: number, rawBody: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", standardWebhooksKey(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${id}.${timestamp}.${rawBody}`)));
  return `v1,${btoa(String.fromCharCode(...mac))}`;
}

/**
 * The wait after a failed delivery attempt: 1, 2, 4, ... minutes, doubling. With 8 attempts the
 * longest wait is 64 minutes (after the 7th) and the 7 waits add up to 127 minutes; the 6-hour
 * cap would first bind after a 10th attempt, so it never does.
 */
export function retryDelaySecs(attempt: number): number {
  return Math.min(60 * 2 ** (attempt - 1), 6 * 3600);
}

/** Attempts before a delivery is given up: 8, spanning 127 minutes of waits (at least 6 attempts over at least an hour). */
export const MAX_DELIVERY_ATTEMPTS = 8;
export const DELIVERY_TIMEOUT_MS = 10_000;

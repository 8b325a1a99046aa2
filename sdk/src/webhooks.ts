import type { ResearchResult } from "./types.js";

/** Headers as any server hands them: Fetch `Headers`, or a record such as Node's `req.headers`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifiedWebhook {
  /** `X-Service-Event`: `research.completed`. */
  event: string;
  /** `X-Service-Delivery`: the same for every attempt of one delivery; use it to process a delivery once. */
  deliveryId: string | null;
  /** `X-Service-Timestamp` (unix seconds) of this attempt, when sent. */
  timestamp: number | null;
  /** The job's final result, parsed from the verified body. */
  result: ResearchResult;
}

export interface VerifyWebhookOptions {
  /**
   * Rejects an attempt whose `X-Service-Timestamp` is further than this from now (default 300 s;
   * `Infinity` turns it off). The service signs the body only, not the timestamp, so this stops a
   * delivery replayed verbatim, not one whose timestamp header was rewritten: deduplicate on
   * `deliveryId` (or the job id) as well.
   */
  toleranceSecs?: number;
  /** The current time in ms (tests). */
  now?: number;
}

export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
}

function header(headers: WebhookHeaders, name: string): string | null {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name);
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === lower) return (Array.isArray(value) ? value[0] : value) ?? null;
  }
  return null;
}

function hexBytes(hex: string): Uint8Array | null {
  if (hex.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(hex)) return null;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** Compares in time that depends on the length only, never on where the first difference is. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

/**
 * Checks a webhook delivery and returns what it carries, or throws a WebhookVerificationError
 * saying why not. `X-Service-Signature` must be `sha256=<hex HMAC-SHA256 of the raw body>` under
 * your account's signing secret (dashboard: Settings). Pass the body exactly as received (the
 * bytes or their text), before any JSON parsing: re-serialised JSON does not verify.
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<VerifiedWebhook> {
  if (!secret) throw new WebhookVerificationError("No signing secret given.");
  const signature = header(headers, "X-Service-Signature");
  if (!signature) throw new WebhookVerificationError("The X-Service-Signature header is missing.");
  const received = signature.startsWith("sha256=") ? hexBytes(signature.slice("sha256=".length)) : null;
  if (!received) throw new WebhookVerificationError("The X-Service-Signature header is not sha256=<hex>.");
  const body = typeof rawBody === "string" ? new TextEncoder().encode(rawBody) : new Uint8Array(rawBody);
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const expected = new Uint8Array(await crypto.subtle.sign("HMAC", key, body));
  if (!constantTimeEqual(received, expected))
    throw new WebhookVerificationError("The signature does not match the body: wrong secret, or the body was changed.");

  const stamp = header(headers, "X-Service-Timestamp");
  const timestamp = stamp !== null && /^\d+$/.test(stamp.trim()) ? Number(stamp.trim()) : null;
  const toleranceSecs = options.toleranceSecs ?? 300;
  if (timestamp !== null && Number.isFinite(toleranceSecs)) {
    const skew = Math.abs((options.now ?? Date.now()) / 1000 - timestamp);
    if (skew > toleranceSecs)
      throw new WebhookVerificationError(`The delivery's timestamp is ${Math.round(skew)} s away from now (tolerance ${toleranceSecs} s).`);
  }
  let result: ResearchResult;
  try {
    result = JSON.parse(typeof rawBody === "string" ? rawBody : new TextDecoder().decode(body)) as ResearchResult;
  } catch {
    throw new WebhookVerificationError("The signed body is not JSON.");
  }
  return { event: header(headers, "X-Service-Event") ?? "research.completed", deliveryId: header(headers, "X-Service-Delivery"), timestamp, result };
}

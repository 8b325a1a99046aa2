import type { ResearchResult } from "./types.js";

/** Headers as any server hands them: Fetch `Headers`, or a record such as Node's `req.headers`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** The body of `research.started`, `research.progress` and `webhook.test` deliveries. */
export interface WebhookEnvelope {
  type: string;
  /** Null for `webhook.test`. */
  job_id: string | null;
  created_at: string;
  /** `{ status }` (started), the job's progress (progress), `{ message }` (test). */
  data: unknown;
}

/** Events whose body is the job's result (the others carry a WebhookEnvelope). */
export const TERMINAL_WEBHOOK_EVENTS = ["research.completed", "research.failed", "research.cancelled"] as const;

export interface VerifiedWebhook {
  /** `X-Service-Event`: `research.completed`, `research.started`, `research.progress`, `research.failed`, `research.cancelled` or `webhook.test`. */
  event: string;
  /** `webhook-id` / `X-Service-Delivery`: the same for every attempt of one delivery; use it to process a delivery once. */
  deliveryId: string | null;
  /** `webhook-timestamp` / `X-Service-Timestamp` (unix seconds) of this attempt, when sent. */
  timestamp: number | null;
  /** Which signature was checked: the Standard Webhooks `webhook-signature`, or `X-Service-Signature`. */
  scheme: "standard-webhooks" | "x-service-signature";
  /** The parsed body: the job's final result for a terminal event (research.completed, .failed, .cancelled). */
  result: ResearchResult;
  /** The parsed body as the envelope of a non-terminal event (started, progress, test); null for a terminal one. */
  envelope: WebhookEnvelope | null;
}

export interface VerifyWebhookOptions {
  /**
   * Rejects an attempt whose timestamp is further than this from now (default 300 s; `Infinity`
   * turns it off). With the Standard Webhooks headers the timestamp is signed, so this stops any
   * replay of an old delivery; `X-Service-Signature` signs the body only, so there it stops a
   * delivery replayed verbatim, not one whose timestamp header was rewritten: deduplicate on
   * `deliveryId` as well.
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

/** The bytes of base64 or base64url text (padding optional); null when it is neither. */
function base64Bytes(text: string): Uint8Array | null {
  const normal = text.trim().replaceAll("-", "+").replaceAll("_", "/").replace(/=+$/, "");
  if (!/^[A-Za-z0-9+/]*$/.test(normal) || normal.length % 4 === 1) return null;
  const binary = atob(normal + "=".repeat((4 - (normal.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

async function hmac(key: Uint8Array, message: Uint8Array): Promise<Uint8Array> {
  const cryptoKey = await crypto.subtle.importKey("raw", key as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, message as BufferSource));
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Checks a webhook delivery and returns what it carries, or throws a WebhookVerificationError
 * saying why not. Pass the body exactly as received (the bytes or their text), before any JSON
 * parsing: re-serialised JSON does not verify, and your account's signing secret (dashboard:
 * Settings, `whsec_…`).
 *
 * When the Standard Webhooks headers are present (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`), `webhook-signature` must hold `v1,<base64 HMAC-SHA256 of
 * "<id>.<timestamp>.<body>">` keyed with the base64-decoded part of the secret after `whsec_`,
 * and the timestamp must be within the tolerance. Otherwise `X-Service-Signature` must be
 * `sha256=<hex HMAC-SHA256 of the raw body>` keyed with the whole secret.
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<VerifiedWebhook> {
  if (!secret) throw new WebhookVerificationError("No signing secret given.");
  const body = typeof rawBody === "string" ? new TextEncoder().encode(rawBody) : new Uint8Array(rawBody);
  const toleranceSecs = options.toleranceSecs ?? 300;
  const checkSkew = (timestamp: number) => {
    if (!Number.isFinite(toleranceSecs)) return;
    const skew = Math.abs((options.now ?? Date.now()) / 1000 - timestamp);
    if (skew > toleranceSecs)
      throw new WebhookVerificationError(`The delivery's timestamp is ${Math.round(skew)} s away from now (tolerance ${toleranceSecs} s).`);
  };

  let scheme: VerifiedWebhook["scheme"];
  let timestamp: number | null;
  let deliveryId: string | null;
  const standardSignature = header(headers, "webhook-signature");
  if (standardSignature !== null) {
    scheme = "standard-webhooks";
    deliveryId = header(headers, "webhook-id");
    const stamp = header(headers, "webhook-timestamp")?.trim() ?? "";
    if (!deliveryId || !/^\d+$/.test(stamp)) throw new WebhookVerificationError("The webhook-id or webhook-timestamp header is missing.");
    timestamp = Number(stamp);
    checkSkew(timestamp);
    const key = base64Bytes(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret);
    if (!key || key.length === 0) throw new WebhookVerificationError("The secret is not whsec_<base64>.");
    const expected = await hmac(key, concat(new TextEncoder().encode(`${deliveryId}.${timestamp}.`), body));
    const matches = standardSignature
      .split(" ")
      .filter((entry) => entry.startsWith("v1,"))
      .map((entry) => base64Bytes(entry.slice(3)))
      .some((received) => received !== null && constantTimeEqual(received, expected));
    if (!matches) throw new WebhookVerificationError("The webhook-signature does not match: wrong secret, or the body, id or timestamp was changed.");
  } else {
    scheme = "x-service-signature";
    const signature = header(headers, "X-Service-Signature");
    if (!signature) throw new WebhookVerificationError("The signature header is missing: neither webhook-signature nor X-Service-Signature was sent.");
    const received = signature.startsWith("sha256=") ? hexBytes(signature.slice("sha256=".length)) : null;
    if (!received) throw new WebhookVerificationError("The X-Service-Signature header is not sha256=<hex>.");
    const expected = await hmac(new TextEncoder().encode(secret), body);
    if (!constantTimeEqual(received, expected))
      throw new WebhookVerificationError("The signature does not match the body: wrong secret, or the body was changed.");
    const stamp = header(headers, "X-Service-Timestamp");
    timestamp = stamp !== null && /^\d+$/.test(stamp.trim()) ? Number(stamp.trim()) : null;
    if (timestamp !== null) checkSkew(timestamp);
    deliveryId = header(headers, "X-Service-Delivery");
  }

  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof rawBody === "string" ? rawBody : new TextDecoder().decode(body));
  } catch {
    throw new WebhookVerificationError("The signed body is not JSON.");
  }
  const event = header(headers, "X-Service-Event") ?? (parsed as { type?: string } | null)?.type ?? "research.completed";
  const terminal = (TERMINAL_WEBHOOK_EVENTS as readonly string[]).includes(event);
  return { event, deliveryId, timestamp, scheme, result: parsed as ResearchResult, envelope: terminal ? null : (parsed as WebhookEnvelope) };
}

import { constantTimeEqual, hmacSha256Hex } from "../../lib/crypto";

/**
 * Verifies a `Stripe-Signature` header (`t=<unix>,v1=<hex>[,v1=...]`): HMAC-SHA256 of
 * `<t>.<raw body>` with the endpoint secret, any v1 matching, timestamp within the tolerance.
 * Implemented on Web Crypto (not the SDK) so webhooks verify even where no secret key is set.
 */
const SIGNATURE_TOLERANCE_SECS = 300;

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

export async function verifyProcessorSignature(
  rawBody: string,
  header: string | undefined,
  secret: string,
  nowSecs = Math.floor(Date.now() / 1000),
  toleranceSecs = SIGNATURE_TOLERANCE_SECS,
): Promise<SignatureCheck> {
  if (!header) return { ok: false, reason: "missing Stripe-Signature header" };
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const [key, value] = part.split("=", 2).map((s) => s.trim());
    if (key === "t" && value && /^\d+$/.test(value)) timestamp = Number(value);
    if (key === "v1" && value) signatures.push(value);
  }
  if (timestamp === undefined || signatures.length === 0) return { ok: false, reason: "malformed Stripe-Signature header" };
  if (Math.abs(nowSecs - timestamp) > toleranceSecs) return { ok: false, reason: "signature timestamp outside the tolerance" };
  const expected = await hmacSha256Hex(secret, `${timestamp}.${rawBody}`);
  // Check every candidate so the time taken does not depend on which one matched.
  let matched = false;
  for (const signature of signatures) matched = constantTimeEqual(signature, expected) || matched;
  return matched ? { ok: true } : { ok: false, reason: "no signature matches" };
}

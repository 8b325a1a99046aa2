import { describe, expect, it } from "vitest";
import { verifyWebhook, WebhookVerificationError } from "../../sdk/src/index";
import { signatureHeader } from "../../src/webhooks/signing";

const SECRET = "whsec_account_signing_secret";
const BODY = JSON.stringify({ id: "0b5f5c3e-6d0e-4a53-9f1f-1d2b2f4b9a11", status: "succeeded", question: "Tariffs — 19th century?", brief: "…" });
const NOW = 1_800_000_000_000;

/** The headers the service sends, signed by its own code (src/webhooks/signing.ts). */
async function delivery(body = BODY, secret = SECRET, timestamp = NOW / 1000) {
  return {
    "X-Service-Signature": await signatureHeader(secret, body),
    "X-Service-Event": "research.completed",
    "X-Service-Delivery": "0b5f5c3e-6d0e-4a53-9f1f-1d2b2f4b9a11",
    "X-Service-Timestamp": String(timestamp),
  };
}

const reason = (promise: Promise<unknown>) =>
  promise.then(
    () => "verified",
    (error: unknown) => (error instanceof WebhookVerificationError ? error.message : `unexpected ${String(error)}`),
  );

describe("verifyWebhook", () => {
  it("accepts what the service signs, given as text, bytes, Fetch Headers or Node's lower-case headers", async () => {
    const headers = await delivery();
    const verified = await verifyWebhook(BODY, headers, SECRET, { now: NOW });
    expect(verified).toMatchObject({
      event: "research.completed",
      deliveryId: headers["X-Service-Delivery"],
      timestamp: NOW / 1000,
      result: { status: "succeeded" },
    });
    await expect(verifyWebhook(new TextEncoder().encode(BODY), new Headers(headers), SECRET, { now: NOW })).resolves.toBeTruthy();
    const nodeHeaders = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
    await expect(verifyWebhook(Buffer.from(BODY), nodeHeaders, SECRET, { now: NOW })).resolves.toBeTruthy();
  });

  it("refuses a changed body, another secret, and malformed or missing signatures", async () => {
    const headers = await delivery();
    expect(await reason(verifyWebhook(BODY.replace("succeeded", "failed"), headers, SECRET, { now: NOW }))).toMatch(/does not match/);
    expect(await reason(verifyWebhook(BODY, headers, "whsec_another_secret", { now: NOW }))).toMatch(/does not match/);
    // Re-serialised JSON is another byte string: only the raw body verifies.
    expect(await reason(verifyWebhook(JSON.stringify(JSON.parse(BODY), null, 2), headers, SECRET, { now: NOW }))).toMatch(/does not match/);
    const hex = headers["X-Service-Signature"].slice("sha256=".length);
    expect(await reason(verifyWebhook(BODY, { ...headers, "X-Service-Signature": hex }, SECRET, { now: NOW }))).toMatch(/not sha256=<hex>/);
    expect(await reason(verifyWebhook(BODY, { ...headers, "X-Service-Signature": `sha256=${hex.slice(2)}` }, SECRET, { now: NOW }))).toMatch(/does not match/);
    expect(await reason(verifyWebhook(BODY, { ...headers, "X-Service-Signature": `sha256=${"zz".repeat(32)}` }, SECRET, { now: NOW }))).toMatch(
      /not sha256=<hex>/,
    );
    expect(await reason(verifyWebhook(BODY, { "X-Service-Event": "research.completed" }, SECRET, { now: NOW }))).toMatch(/missing/);
    expect(await reason(verifyWebhook(BODY, headers, "", { now: NOW }))).toMatch(/No signing secret/);
  });

  it("refuses an attempt whose timestamp is outside the tolerance (300 s by default), unless told not to check", async () => {
    const stale = await delivery(BODY, SECRET, NOW / 1000 - 301);
    expect(await reason(verifyWebhook(BODY, stale, SECRET, { now: NOW }))).toMatch(/301 s away from now/);
    expect(await reason(verifyWebhook(BODY, stale, SECRET, { now: NOW, toleranceSecs: 600 }))).toBe("verified");
    expect(await reason(verifyWebhook(BODY, stale, SECRET, { now: NOW, toleranceSecs: Infinity }))).toBe("verified");
    expect(await reason(verifyWebhook(BODY, await delivery(BODY, SECRET, NOW / 1000 - 299), SECRET, { now: NOW }))).toBe("verified");
  });
});

import { describe, expect, it } from "vitest";
import { verifyWebhook, WebhookVerificationError } from "../../sdk/src/index";
import { signatureHeader, standardSignatureHeader } from "../../src/webhooks/signing";

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

/**
 * The Standard Webhooks path, checked against the specification's own example (the svix test
 * vector): an off-the-shelf verifier and ours agree on the signed content and the key.
 */
describe("verifyWebhook, Standard Webhooks headers", () => {
  const VECTOR = {
    secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
    timestamp: 1614265330,
    body: '{"test": 2432232314}',
    signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
  };
  const vectorHeaders = { "webhook-id": VECTOR.id, "webhook-timestamp": String(VECTOR.timestamp), "webhook-signature": VECTOR.signature };

  it("the service signs the specification's example exactly as the specification does", async () => {
    expect(await standardSignatureHeader(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
  });

  it("accepts the specification's example, several signatures in one header, and reports the scheme", async () => {
    const now = VECTOR.timestamp * 1000;
    const verified = await verifyWebhook(VECTOR.body, vectorHeaders, VECTOR.secret, { now });
    expect(verified).toMatchObject({ scheme: "standard-webhooks", deliveryId: VECTOR.id, timestamp: VECTOR.timestamp, result: { test: 2432232314 } });
    const rotated = { ...vectorHeaders, "webhook-signature": `v1,${btoa("x".repeat(32))} ${VECTOR.signature}` };
    expect(await reason(verifyWebhook(VECTOR.body, rotated, VECTOR.secret, { now }))).toBe("verified");
  });

  it("refuses a changed body, id or timestamp, another secret, and a stale timestamp (signed, so not rewritable)", async () => {
    const now = VECTOR.timestamp * 1000;
    expect(await reason(verifyWebhook(`${VECTOR.body} `, vectorHeaders, VECTOR.secret, { now }))).toMatch(/does not match/);
    expect(await reason(verifyWebhook(VECTOR.body, { ...vectorHeaders, "webhook-id": "msg_other" }, VECTOR.secret, { now }))).toMatch(/does not match/);
    const later = { ...vectorHeaders, "webhook-timestamp": String(VECTOR.timestamp + 1) };
    expect(await reason(verifyWebhook(VECTOR.body, later, VECTOR.secret, { now }))).toMatch(/does not match/);
    expect(await reason(verifyWebhook(VECTOR.body, vectorHeaders, "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", { now }))).toMatch(/does not match/);
    expect(await reason(verifyWebhook(VECTOR.body, vectorHeaders, VECTOR.secret, { now: now + 301_000 }))).toMatch(/301 s away from now/);
    expect(await reason(verifyWebhook(VECTOR.body, vectorHeaders, VECTOR.secret, { now: now + 301_000, toleranceSecs: Infinity }))).toBe("verified");
    expect(await reason(verifyWebhook(VECTOR.body, { ...vectorHeaders, "webhook-id": undefined }, VECTOR.secret, { now }))).toMatch(/missing/);
  });

  it("a delivery signed both ways verifies either way; the Standard Webhooks headers are checked first when present", async () => {
    const secret = `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
    const id = "0b5f5c3e-6d0e-4a53-9f1f-1d2b2f4b9a11:research.started";
    const body = JSON.stringify({
      type: "research.started",
      job_id: "0b5f5c3e-6d0e-4a53-9f1f-1d2b2f4b9a11",
      created_at: "2027-01-15T08:00:00.000Z",
      data: { status: "running" },
    });
    const timestamp = NOW / 1000;
    const service = { ...(await delivery(body, secret, timestamp)), "X-Service-Event": "research.started", "X-Service-Delivery": id };
    const standard = {
      "webhook-id": id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": await standardSignatureHeader(secret, id, timestamp, body),
    };
    const both = await verifyWebhook(body, { ...service, ...standard }, secret, { now: NOW });
    expect(both).toMatchObject({
      scheme: "standard-webhooks",
      event: "research.started",
      deliveryId: id,
      envelope: { type: "research.started", data: { status: "running" } },
    });
    expect((await verifyWebhook(body, service, secret, { now: NOW })).scheme).toBe("x-service-signature");
    expect((await verifyWebhook(body, standard, secret, { now: NOW })).scheme).toBe("standard-webhooks");
    // A broken Standard Webhooks signature is not rescued by a good X-Service-Signature.
    const broken = { ...service, ...standard, "webhook-signature": `v1,${btoa("y".repeat(32))}` };
    expect(await reason(verifyWebhook(body, broken, secret, { now: NOW }))).toMatch(/does not match/);
  });

  it("an account secret from before lifecycle webhooks (base64url) still verifies the Standard Webhooks way", async () => {
    const legacy = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw-_8"; // base64url, no padding
    const signature = await standardSignatureHeader(legacy, "d1", NOW / 1000, BODY);
    const headers = { "webhook-id": "d1", "webhook-timestamp": String(NOW / 1000), "webhook-signature": signature };
    expect(await reason(verifyWebhook(BODY, headers, legacy, { now: NOW }))).toBe("verified");
  });
});

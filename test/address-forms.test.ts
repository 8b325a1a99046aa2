import { describe, expect, it } from "vitest";
import { callConfigured, PRODUCTION_JWT_SECRET } from "./configured-call";
import { call, createKey, expectError, signupUser } from "./helpers";

/**
 * Every IPv6 form that embeds an IPv4 address is judged by that IPv4 address (issue 39, item 9a),
 * through HTTP: a webhook test event to each form is refused before anything is sent. Production
 * refuses loopback too; development accepts loopback (npm start's local receivers) but no other
 * forbidden range in any form.
 */
const PRODUCTION = { ENVIRONMENT: "production", JWT_SECRET: PRODUCTION_JWT_SECRET };

// [URL host, the IPv4 address it reaches or the form, what the refusal names]
const LOOPBACK_FORMS: [string, string, RegExp][] = [
  ["[::ffff:0:7f00:1]", "translated 127.0.0.1", /loopback/],
  ["[::ffff:0:127.0.0.1]", "translated, dotted", /loopback/],
  ["[::ffff:7f00:1]", "mapped, hex", /loopback/],
  ["[::ffff:127.0.0.1]", "mapped, dotted", /loopback/],
  ["[::127.0.0.1]", "IPv4-compatible", /loopback/],
  ["[64:ff9b::7f00:1]", "NAT64 well-known prefix", /loopback/],
  ["[64:ff9b:1::7f00:1]", "NAT64 local-use prefix", /NAT64/],
  ["[2002:7f00:1::1]", "6to4", /loopback/],
  ["[2001:0:7f00:1::1]", "Teredo", /Teredo/],
];
const PRIVATE_FORMS: [string, string, RegExp][] = [
  ["[::ffff:0:a00:1]", "translated 10.0.0.1", /private/],
  ["[::ffff:0:169.254.169.254]", "translated metadata", /metadata/],
  ["[::ffff:0:c0a8:101]", "translated 192.168.1.1", /private/],
  ["[::ffff:a9fe:a9fe]", "mapped metadata, hex", /metadata/],
  ["[::10.0.0.1]", "IPv4-compatible 10.0.0.1", /private/],
  ["[64:ff9b::a9fe:a9fe]", "NAT64 of the metadata address", /metadata/],
  ["[2002:a00:1::1]", "6to4 of 10.0.0.1", /private/],
];

async function apiKey(): Promise<string> {
  return (await createKey(await signupUser())).plaintext;
}

describe("IPv6 forms that embed an IPv4 address", () => {
  it.each([...LOOPBACK_FORMS, ...PRIVATE_FORMS])("production refuses https://%s (%s) as a webhook destination", async (host, _form, reason) => {
    const key = await apiKey();
    const response = await callConfigured(PRODUCTION, "/v1/webhooks/test", { token: key, body: { url: `https://${host}/hook` } });
    const body = await expectError(response, 400, "invalid_request");
    expect(body.error.message).toMatch(reason);
  });

  it.each(PRIVATE_FORMS)("development refuses https://%s (%s) too: only loopback is a local exception", async (host, _form, reason) => {
    const key = await apiKey();
    const body = await expectError(await call("/v1/webhooks/test", { token: key, body: { url: `https://${host}/hook` } }), 400, "invalid_request");
    expect(body.error.message).toMatch(reason);
  });

  it("a job's webhook_url in the translated form is refused at submit, and nothing is reserved", async () => {
    const user = await signupUser();
    const key = (await createKey(user)).plaintext;
    const response = await callConfigured(PRODUCTION, "/v1/research", {
      token: key,
      body: { question: "What did presidents say about railroads?", mode: "lite", webhook_url: "https://[::ffff:0:7f00:1]/hook" },
    });
    const body = await expectError(response, 400, "invalid_request");
    expect(body.error.message).toMatch(/loopback/);
    const credits = await call("/v1/credits", { token: key });
    expect((await credits.json()) as { credits: number }).toMatchObject({ credits: 500 });
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { DeepResearch } from "../../sdk/src/index";
import { fakeService, json, type Recorded } from "./fake-server";

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

/** What a call sent: its method, path and body (the idempotency key, random per submit, aside). */
const sent = (request: Recorded) => `${request.method} ${request.url} ${request.body}`;

/**
 * The SDK by resources (docs/decisions.md "The TypeScript SDK by resources"): each resource call
 * sends the request its REST operation names, and each root alias of the previous release sends
 * exactly the same request as the resource call it stands for.
 */
describe("client resources and their aliases", () => {
  it("client.research.*, client.credits, client.modes and client.webhooks send their operations; each alias sends the same", async () => {
    const service = await fakeService([json(200, [])]);
    close = service.close;
    const client = new DeepResearch({ apiKey: "dr_test_key", baseUrl: service.baseUrl, maxRetries: 0 });
    const pairs: [string, () => PromiseLike<unknown>, () => PromiseLike<unknown>][] = [
      ["POST /v1/research/quote", () => client.research.quote("q", { mode: "lite" }), () => client.quote("q", { mode: "lite" })],
      ["POST /v1/research/plan", () => client.research.plan("q"), () => client.plan("q")],
      ["POST /v1/research", () => client.research.create("q", { idempotencyKey: "k1" }), () => client.submit("q", { idempotencyKey: "k1" })],
      ["GET /v1/research/job-1", () => client.research.get("job-1"), () => client.get("job-1")],
      ["DELETE /v1/research/job-1", () => client.research.cancel("job-1"), () => client.cancel("job-1")],
      ["GET /v1/research?status=failed", () => client.research.list({ status: "failed" }), () => client.list({ status: "failed" })],
      ["GET /v1/research?limit=2", () => client.research.list({ limit: 2 }), () => client.jobs.list({ limit: 2 })],
      ["GET /v1/research/job-1/deliveries", () => client.research.deliveries("job-1"), () => client.deliveries("job-1")],
      ["POST /v1/research/job-1/deliveries/d-1/resend", () => client.research.resendDelivery("job-1", "d-1"), () => client.resendDelivery("job-1", "d-1")],
      ["GET /v1/credits", () => client.credits.get(), () => client.credits()],
      ["GET /api/billing/modes", () => client.modes.list(), () => client.modes()],
      ["POST /v1/webhooks/test", () => client.webhooks.test("https://example.com/h"), () => client.testWebhook("https://example.com/h")],
    ];
    for (const [operation, resource, alias] of pairs) {
      const before = service.requests.length;
      await resource();
      await alias();
      const [first, second] = service.requests.slice(before);
      expect(`${first!.method} ${first!.url}`, operation).toBe(operation);
      expect(sent(second!), operation).toBe(sent(first!));
      expect(second!.headers["idempotency-key"], operation).toBe(first!.headers["idempotency-key"]);
    }
    expect(JSON.parse(service.requests[0]!.body)).toMatchObject({ question: "q", mode: "lite" });
  });

  it("client.research is still the call that researches, as client.research.run", async () => {
    const result = { id: "job-1", status: "succeeded", brief: "B", answer: null, sources: [] };
    const service = await fakeService([json(200, result)]);
    close = service.close;
    const client = new DeepResearch({ apiKey: "dr_test_key", baseUrl: service.baseUrl, maxRetries: 0 });
    expect(await client.research("q")).toEqual(result);
    expect(await client.research.run("q")).toEqual(result);
    expect(service.requests.map((request) => `${request.method} ${request.url}`)).toEqual(["POST /v1/research", "POST /v1/research"]);
  });
});

import { describe, expect, it } from "vitest";
import { BASE } from "./helpers";
import { checkRecordedExchanges, recordExchange } from "./setup/response-contract";

// The checker that every test's responses pass through (setup/check-responses.ts) must itself
// catch each kind of broken promise, or a green run proves nothing.
describe("the response contract checker", () => {
  const exchange = (method: string, path: string, status: number, body: unknown, contentType = "application/json") =>
    recordExchange(
      new Request(BASE + path, { method }),
      new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "Content-Type": contentType } }),
    );

  it("flags an undocumented status, an undeclared content type and a body off the schema; passes a conforming one", async () => {
    exchange("GET", "/v1/credits", 418, { error: { code: "teapot", message: "no" } });
    exchange("GET", "/v1/credits", 200, "credits: 5", "text/plain");
    exchange("GET", "/v1/credits", 200, { credits: "many" });
    exchange("GET", "/api/billing/auto-topup", 200, { enabled: true, threshold_credits: 10, pack_id: "starter" });
    exchange("GET", "/v1/credits", 200, { credits: 5, usd: "0.05" });
    exchange("GET", "/no/such/route", 404, { error: { code: "not_found", message: "No route" } });
    const problems = await checkRecordedExchanges();
    expect(problems, problems.join("\n")).toHaveLength(4);
    expect(problems[0]).toMatch(/GET \/v1\/credits -> 418: status not documented/);
    expect(problems[1]).toMatch(/text\/plain not declared/);
    expect(problems[2]).toMatch(/\/credits must be integer/);
    expect(problems[3]).toMatch(/auto-topup -> 200: body does not match the schema: \/ must have required property 'in_flight'/);
  });
});

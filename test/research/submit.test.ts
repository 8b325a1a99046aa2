import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, dbAll, dbFirst, dbRun, expectError, expectLedgerConsistent, json } from "../helpers";
import { apiCaller, type ApiCaller, balanceOf, CORPUS, corpusLoaded, jobLedger, research, setBalance, waitForTerminal } from "./helpers";

// The async-by-webhook case delivers its result here.
const receiver = setupServer(http.post("https://hooks.example.test/*", () => HttpResponse.json({ ok: true })));
beforeAll(() => receiver.listen({ onUnhandledRequest: "error" }));
afterAll(() => receiver.close());

const Q = "Why was the Tariff of 1828 called the Tariff of Abominations?";

async function expectNothingWritten(caller: ApiCaller) {
  expect(await dbAll("select id from research_jobs where user_id = ?", caller.id)).toEqual([]);
  expect(await balanceOf(caller)).toBe(500);
  await expectLedgerConsistent(caller.id);
}

describe("POST /v1/research validation", () => {
  const bigSchema = { type: "object", properties: Object.fromEntries(Array.from({ length: 700 }, (_, i) => [`field_${i}`, { type: "string" }])) };
  const cases: [string, unknown][] = [
    ["empty question", { question: "" }],
    ["whitespace question", { question: "   \n\t " }],
    ["question over 2000 characters", { question: "a".repeat(2001) }],
    ["missing question", { mode: "lite" }],
    ["unknown mode", { question: Q, mode: "ultra" }],
    ["question not a string", { question: 42 }],
    ["async not a boolean", { question: Q, async: "yes" }],
    ["max_credits not an integer", { question: Q, mode: "max", max_credits: 10.5 }],
    ["negative max_wallclock_secs", { question: Q, max_wallclock_secs: -1 }],
    ["unknown field", { question: Q, colour: "blue" }],
    ["max without max_credits", { question: Q, mode: "max" }],
    ["response_schema not an object", { question: Q, response_schema: "string" }],
    ["response_schema an array", { question: Q, response_schema: [1, 2] }],
    ["response_schema not a valid JSON Schema", { question: Q, response_schema: { type: "banana" } }],
    ["response_schema over 16 KiB", { question: Q, response_schema: bigSchema }],
    ["include_domains over 50", { question: Q, include_domains: Array.from({ length: 51 }, (_, i) => `d${i}.example.com`) }],
    ["include_domains not domains", { question: Q, include_domains: ["not a domain"] }],
    ["exclude_domains with a URL", { question: Q, exclude_domains: ["https://example.com/path"] }],
    ["webhook_url http on a public host", { question: Q, webhook_url: "http://hooks.example.com/receive" }],
    ["webhook_url with credentials", { question: Q, webhook_url: "https://user:pass@hooks.example.com/receive" }],
    ["webhook_url to 10.x", { question: Q, webhook_url: "https://10.0.0.8/hook" }],
    ["webhook_url to 192.168.x", { question: Q, webhook_url: "https://192.168.1.20/hook" }],
    ["webhook_url to 172.16.x", { question: Q, webhook_url: "https://172.16.0.1/hook" }],
    ["webhook_url to the metadata address", { question: Q, webhook_url: "https://169.254.169.254/latest/meta-data" }],
    ["webhook_url to metadata.google.internal", { question: Q, webhook_url: "https://metadata.google.internal/computeMetadata/v1" }],
    ["webhook_url to an IPv6 private address", { question: Q, webhook_url: "https://[fd00::1]/hook" }],
    ["webhook_url to an IPv6 link-local address", { question: Q, webhook_url: "https://[fe80::1]/hook" }],
    ["webhook_url to carrier-grade NAT", { question: Q, webhook_url: "https://100.64.0.1/hook" }],
    ["webhook_url to metadata.google.internal with a trailing dot", { question: Q, webhook_url: "https://metadata.google.internal./computeMetadata/v1" }],
    ["webhook_url to NAT64 of the metadata address", { question: Q, webhook_url: "https://[64:ff9b::a9fe:a9fe]/hook" }],
    ["webhook_url to a decimal private address", { question: Q, webhook_url: "https://167772161/hook" }],
    ["webhook_url over 2048 characters", { question: Q, webhook_url: `https://hooks.example.com/${"a".repeat(2048)}` }],
    ["webhook_url not a URL", { question: Q, webhook_url: "not a url" }],
    ["webhook_url ftp", { question: Q, webhook_url: "ftp://hooks.example.com/x" }],
  ];
  it.each(cases)("400 invalid_request: %s, nothing written", async (_name, body) => {
    const caller = await apiCaller();
    await expectError(await call("/v1/research", { token: caller.key, body }), 400, "invalid_request");
    await expectNothingWritten(caller);
  });

  it("400 with a clear message for a schema that nests 5,000 deep or whose $ref never ends, with the Idempotency-Key too", async () => {
    const caller = await apiCaller();
    // About 10 KB of JSON: the body fits every size limit, the nesting would overflow a recursive walk.
    const deep = { type: "object", const: JSON.parse(`${"[".repeat(5000)}${"]".repeat(5000)}`) };
    const tooDeep = await call("/v1/research", { token: caller.key, body: { question: Q, response_schema: deep }, headers: { "Idempotency-Key": "deep-1" } });
    const body = await expectError(tooDeep, 400, "invalid_request");
    expect(body.error.message).toMatch(/response_schema must not nest .* 32 levels/);
    for (const cyclic of [{ $ref: "#" }, { $defs: { a: { $ref: "#/$defs/b" }, b: { allOf: [{ $ref: "#/$defs/a" }] } }, $ref: "#/$defs/a" }]) {
      const cycle = await expectError(
        await call("/v1/research", { token: caller.key, body: { question: Q, response_schema: cyclic } }),
        400,
        "invalid_request",
      );
      expect(cycle.error.message).toMatch(/\$ref references form a cycle/);
      expect(cycle.error.message).not.toMatch(/call stack/i);
    }
    await expectNothingWritten(caller);
  });

  it("400 for malformed JSON and a wrong content type", async () => {
    const caller = await apiCaller();
    await expectError(await call("/v1/research", { token: caller.key, rawBody: "{", headers: { "Content-Type": "application/json" } }), 400, "invalid_request");
    await expectError(
      await call("/v1/research", { token: caller.key, rawBody: `question=${Q}`, headers: { "Content-Type": "text/plain" } }),
      400,
      "invalid_request",
    );
    await expectNothingWritten(caller);
  });

  // At the current OP_PRICES one search + one read + the 15% reserve cost 0.85 credits, so every
  // max_credits >= 1 covers them: only the wall-clock rule can make a budget impossible.
  it("400 impossible_budget: a wall clock below the mode's synthesis time reserve", async () => {
    const caller = await apiCaller();
    await expectError(await research(caller, { question: Q, mode: "max", max_credits: 50, max_wallclock_secs: 59 }), 400, "impossible_budget");
    await expectError(await research(caller, { question: Q, mode: "pro", max_wallclock_secs: 0 }), 400, "impossible_budget");
    await expectError(await research(caller, { question: Q, mode: "lite", max_wallclock_secs: 5 }), 400, "impossible_budget");
    await expectError(await research(caller, { question: Q, mode: "standard", max_wallclock_secs: 19 }), 400, "impossible_budget");
    await expectNothingWritten(caller);
  });

  it("401 without a key or with an invalid key", async () => {
    await expectError(await call("/v1/research", { body: { question: Q } }), 401, "unauthorized");
    await expectError(await call("/v1/research", { token: "sk_live_not_a_real_key", body: { question: Q } }), 401, "unauthorized");
  });
});

describe("POST /v1/research charges", () => {
  it("402 insufficient_credits when the balance is below the price: nothing charged, no job", async () => {
    const caller = await apiCaller();
    await setBalance(caller.id, 59);
    await expectError(await research(caller, { question: Q, mode: "standard" }), 402, "insufficient_credits");
    await expectError(await research(caller, { question: Q, mode: "max", max_credits: 100 }), 402, "insufficient_credits");
    expect(await dbAll("select id from research_jobs where user_id = ?", caller.id)).toEqual([]);
    expect(await balanceOf(caller)).toBe(59);
    const kinds = await dbAll<{ kind: string }>("select kind from ledger_entries where user_id = ? order by seq", caller.id);
    expect(kinds.map((k) => k.kind)).toEqual(["signup_bonus", "admin_adjustment"]);
    await expectLedgerConsistent(caller.id);
  });

  it("paid plans get overage instead of a 402", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    await dbRun(
      "insert into subscriptions (user_id, plan_id, status, processor_subscription_id, updated_at) values (?, 'developer', 'active', ?, ?)",
      caller.id,
      `sub_${crypto.randomUUID()}`,
      new Date().toISOString(),
    );
    await setBalance(caller.id, 10);
    const response = await research(caller, { question: Q, mode: "lite" });
    expect(response.status).toBe(200);
    const result = await json(response);
    expect(result).toMatchObject({ status: "succeeded", credits_charged: 15 });
    expect((await jobLedger(caller.id, result.id)).map((e) => [e.kind, e.delta])).toEqual([
      ["overage", 5],
      ["reservation", -15],
      ["release", 0],
    ]);
    expect(await balanceOf(caller)).toBe(0);
    await expectLedgerConsistent(caller.id);
  });

  it("max mode is metered: ceil(cost_usd * 100) up to max_credits, the rest released", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const response = await research(caller, { question: Q, mode: "max", max_credits: 50 });
    expect(response.status).toBe(202);
    const done = await waitForTerminal(caller, (await json(response)).id);
    expect(done.status).toBe("succeeded");
    expect(done.cost_usd).toBeGreaterThan(0);
    expect(done.cost_usd).toBeLessThanOrEqual(0.5);
    expect(done.credits_charged).toBe(Math.ceil(Math.round(done.cost_usd * 1e6) / 1e4 - 1e-9));
    expect(done.credits_charged).toBeLessThanOrEqual(50);
    expect((await jobLedger(caller.id, done.id)).map((e) => [e.kind, e.delta])).toEqual([
      ["reservation", -50],
      ["release", 50 - done.credits_charged],
    ]);
    expect(await balanceOf(caller)).toBe(500 - done.credits_charged);
    await expectLedgerConsistent(caller.id);
  });

  it("sync lite: 200 with every ResearchResult field, citations resolving into sources, 15 credits", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const response = await research(caller, { question: Q, mode: "lite" });
    expect(response.status).toBe(200);
    const result = await json(response);
    expect(Object.keys(result).sort()).toEqual(
      [
        "answer",
        "brief",
        "charge_basis",
        "citations",
        "completed_at",
        "cost_usd",
        "created_at",
        "credits_charged",
        "error",
        "id",
        "latency_ms",
        "partial",
        "previous_job_id",
        "question",
        "sources",
        "status",
        "thread",
        "typed",
        "wave_count",
      ].sort(),
    );
    expect(result).toMatchObject({
      status: "succeeded",
      question: Q,
      typed: null,
      error: null,
      credits_charged: 15,
      partial: false,
      previous_job_id: null,
      thread: [],
    });
    expect(result.charge_basis).toMatchObject({ rule: "mode_price", reason: expect.stringMatching(/^Charged the lite price, 15 credits \(\$0\.15\)/) });
    expect(result.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(result.created_at).toISOString()).toBe(result.created_at);
    expect(Date.parse(result.completed_at)).toBeGreaterThanOrEqual(Date.parse(result.created_at));
    expect(result.latency_ms).toBeGreaterThanOrEqual(0);
    expect(result.wave_count).toBe(1);
    expect(result.cost_usd).toBeGreaterThan(0);
    expect(result.cost_usd).toBeLessThanOrEqual(0.15);
    expect(result.sources.length).toBeGreaterThan(0);
    expect(result.sources.length).toBeLessThanOrEqual(5);
    for (const source of result.sources) {
      expect(source).toEqual({
        url: expect.stringMatching(/^https:\/\//),
        title: expect.any(String),
        domain: new URL(source.url).hostname,
        summary: expect.any(String),
      });
    }
    const citations = [...result.brief.matchAll(/\[(\d+)\]/g)].map((m: RegExpMatchArray) => Number(m[1]));
    expect(citations.length).toBeGreaterThan(0);
    for (const n of citations) expect(result.sources[n - 1]).toBeDefined();
    expect(result.brief).toMatch(/Abominations/);
    // Claim-level basis: every entry points at a source and quotes its stored text exactly.
    expect(result.citations.length).toBeGreaterThan(0);
    for (const citation of result.citations) {
      const source = CORPUS.find((doc) => doc.url === result.sources[citation.source].url)!;
      expect(source.text.slice(citation.start, citation.end)).toBe(citation.quote);
      expect(result.brief).toContain(citation.claim.replace(/[.!?]$/, ""));
    }

    expect(await balanceOf(caller)).toBe(485);
    expect((await jobLedger(caller.id, result.id)).map((e) => [e.kind, e.delta])).toEqual([
      ["reservation", -15],
      ["release", 0],
    ]);
    await expectLedgerConsistent(caller.id);
    const row = await dbFirst("select status, credits_charged, origin, mode from research_jobs where id = ?", result.id);
    expect(row).toEqual({ status: "succeeded", credits_charged: 15, origin: "api", mode: "lite" });
  });

  it("include_sources false leaves out the summaries", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const result = await json(await research(caller, { question: Q, mode: "lite", include_sources: false }));
    expect(result.status).toBe("succeeded");
    for (const source of result.sources) expect(source.summary ?? null).toBeNull();
  });

  it.each([
    ["async: true", { mode: "lite", async: true }],
    ["a webhook_url", { mode: "lite", webhook_url: "https://hooks.example.test/receive" }],
    ["standard mode by default (180 s wall clock)", {}],
    ["lite with max_wallclock_secs 120 (rule 3)", { mode: "lite", max_wallclock_secs: 120 }],
  ])("202 AsyncAccepted for %s, with absolute status_url and events_url", async (_name, extra) => {
    await corpusLoaded();
    const caller = await apiCaller();
    const response = await research(caller, { question: Q, ...extra });
    expect(response.status).toBe(202);
    const accepted = await json(response);
    expect(Object.keys(accepted).sort()).toEqual(["events_url", "id", "status", "status_url"]);
    expect(accepted.status).toBe("pending");
    expect(accepted.status_url).toBe(`https://api.example.test/v1/research/${accepted.id}`);
    expect(accepted.events_url).toBe(`https://api.example.test/v1/research/${accepted.id}/events`);
    const done = await waitForTerminal(caller, accepted.id);
    expect(done.status).toBe("succeeded");
    await expectLedgerConsistent(caller.id);
  });

  it("lite with max_wallclock_secs 60 stays synchronous", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const response = await research(caller, { question: Q, mode: "lite", max_wallclock_secs: 60 });
    expect(response.status).toBe(200);
  });

  it("include_domains and exclude_domains are obeyed by every returned source", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const question = "How did tariffs affect trade and the economy?";
    const included = await json(await research(caller, { question, mode: "lite", include_domains: ["econ.example.com"] }));
    expect(included.status).toBe("succeeded");
    expect(included.sources.length).toBeGreaterThan(0);
    for (const source of included.sources) expect(source.domain).toBe("econ.example.com");

    const excluded = await json(await research(caller, { question, mode: "lite", exclude_domains: ["econ.example.com"] }));
    expect(["succeeded", "failed"]).toContain(excluded.status);
    for (const source of excluded.sources) expect(source.domain).not.toBe("econ.example.com");

    // Subdomains match; include first, then exclude.
    const both = await json(
      await research(caller, { question, mode: "lite", include_domains: ["example.org", "example.com"], exclude_domains: ["history.example.org"] }),
    );
    for (const source of both.sources) expect(source.domain).toBe("econ.example.com");
    await expectLedgerConsistent(caller.id);
  });
});

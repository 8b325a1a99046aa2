import { spawn } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ResearchResult } from "../../sdk/src/index";
import { error, fakeService, json, type Recorded } from "./fake-server";
import type { ServerResponse } from "node:http";

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

/** The CLI as a process, against a stand-in service (what a real one cannot be made to do on demand: a 429). */
function cli(args: string[], baseUrl: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["sdk/bin/deep-research.mjs", ...args], {
    env: { ...process.env, DEEP_RESEARCH_API_KEY: "dr_test_key", DEEP_RESEARCH_BASE_URL: baseUrl },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

describe("the CLI when rate limited", () => {
  it("says it waits out a Retry-After, then answers", async () => {
    const service = await fakeService([error(429, "rate_limited", "Too many requests.", { "Retry-After": "2" }), json(200, { credits: 480, usd: "4.80" })]);
    close = service.close;
    const run = await cli(["credits"], service.baseUrl);
    expect(run).toEqual({ code: 0, stdout: "480 credits ($4.80)\n", stderr: "Rate limited: retrying in 2 s…\n" });
    expect(service.requests.map((request) => request.headers.authorization)).toEqual(["Bearer dr_test_key", "Bearer dr_test_key"]);
  });

  it("says when to retry when the service asks for longer than it waits (exit 5)", async () => {
    const service = await fakeService([error(429, "rate_limited", "Too many requests.", { "Retry-After": "120" })]);
    close = service.close;
    expect(await cli(["credits"], service.baseUrl)).toEqual({ code: 5, stdout: "", stderr: "Too many requests: retry in 120 s and run it again.\n" });
    expect(service.requests).toHaveLength(1);
  });
});

const JOB_ID = "0b5f5c3e-6d0e-4a53-9f1f-1d2b2f4b9a11";
const FINISHED: ResearchResult = {
  id: JOB_ID,
  status: "succeeded",
  question: "What ended the Nullification Crisis?",
  brief: "The Compromise Tariff of 1833 ended the crisis [1].",
  answer: { text: "The Compromise Tariff of 1833", confidence: "high", citations: [0] },
  typed: null,
  sources: [{ url: "https://history.example.org/nullification", title: "Nullification Crisis", domain: "history.example.org" }],
  citations: [],
  credits_charged: 60,
  charge_basis: { rule: "mode_price", reason: "Charged the standard price, 60 credits ($0.60): the brief cites 1 source that addresses the question." },
  cost_usd: 0.087,
  created_at: "2026-01-01T00:00:00.000Z",
  completed_at: "2026-01-01T00:00:01.000Z",
  error: null,
  latency_ms: 1000,
  wave_count: 2,
  previous_job_id: null,
  thread: [],
  partial: false,
};

/** A service that accepts one job (202) and streams `result` as its only event. */
function researchService(result: ResearchResult) {
  return (req: Recorded, res: ServerResponse) => {
    if (req.url.startsWith("/api/billing/modes")) return json(200, [])(req, res);
    if (req.method === "POST" && req.url === "/v1/research") {
      return json(202, { id: JOB_ID, status: "pending", status_url: `http://x/v1/research/${JOB_ID}`, events_url: `http://x/v1/research/${JOB_ID}/events` })(
        req,
        res,
      );
    }
    if (req.url === `/v1/research/${JOB_ID}/events`) {
      res.writeHead(200, { "Content-Type": "text/event-stream" }).end(`id: 1\nevent: result\ndata: ${JSON.stringify(result)}\n\n`);
      return;
    }
    error(404, "not_found", `unexpected ${req.method} ${req.url}`)(req, res);
  };
}

describe("the CLI's short answer", () => {
  it("prints the short answer and its confidence above the brief, in Markdown and in --json", async () => {
    const service = await fakeService([researchService(FINISHED)]);
    close = service.close;

    const text = await cli([FINISHED.question, "--quiet"], service.baseUrl);
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(
      "# What ended the Nullification Crisis?\n\n**Answer:** The Compromise Tariff of 1833 [1] _(High confidence)_\n\n" +
        "The Compromise Tariff of 1833 ended the crisis [1].\n\n## Sources\n\n1. [Nullification Crisis](https://history.example.org/nullification) — history.example.org\n",
    );

    const printed = await cli([FINISHED.question, "--quiet", "--json"], service.baseUrl);
    expect(printed.code).toBe(0);
    // Every field as the service sent it, and the answer's lines come before the brief's.
    expect(JSON.parse(printed.stdout)).toEqual(FINISHED);
    expect(printed.stdout.indexOf('"confidence": "high"')).toBeGreaterThan(0);
    expect(printed.stdout.indexOf('"confidence": "high"')).toBeLessThan(printed.stdout.indexOf('"brief"'));
  });

  it("says plainly when the sources do not answer (answer null)", async () => {
    const service = await fakeService([researchService({ ...FINISHED, answer: null, brief: "The sources read do not cover this question." })]);
    close = service.close;
    const text = await cli([FINISHED.question, "--quiet"], service.baseUrl);
    expect(text.stdout).toMatch(
      /^# What ended the Nullification Crisis\?\n\n\*\*Answer:\*\* none\. The sources read do not answer this question\.\n\nThe sources read do not cover this question\./,
    );
    const printed = await cli([FINISHED.question, "--quiet", "--json"], service.baseUrl);
    expect(JSON.parse(printed.stdout)).toMatchObject({ answer: null });
    expect(printed.stdout).toMatch(/"question": .*\n {2}"answer": null,\n {2}"brief"/);
  });
});

describe("the CLI's summary", () => {
  it("counts one source as one", async () => {
    const service = await fakeService([researchService(FINISHED)]);
    close = service.close;
    const run = await cli([FINISHED.question], service.baseUrl);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/\nsucceeded · 60 credits \(\$0\.60\) charged · 1 source cited · 1\.0 s · job [0-9a-f-]{36}\n$/);
  });
});

describe("deep-research --quote", () => {
  const quote = (covered: boolean) => ({
    mode: "standard",
    metered: false,
    credits_reserved: 60,
    max_charge_credits: 60,
    max_charge_usd: 0.6,
    envelope: { max_waves: 2, max_searches: 12, max_pages: 20, max_wallclock_secs: 180 },
    runs: "async",
    balance_credits: covered ? 500 : 10,
    covered,
    covered_by: covered ? "balance" : null,
    insufficient_credits: covered ? null : "This standard job needs 60 credits; the balance is 10.",
  });

  it("prints the quote of the request it would send, runs nothing, and exits 0 when covered", async () => {
    const service = await fakeService([json(200, quote(true))]);
    close = service.close;
    const run = await cli(["What ended the Nullification Crisis?", "--quote", "--include-domain", "loc.gov"], service.baseUrl);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toMatch(/^Quote for a standard job \(nothing was reserved or charged\):\n {2}price {5}60 credits \(\$0\.60\), fixed/);
    expect(run.stdout).toContain("  balance   500 credits ($5.00): covered by the balance\n");
    expect(service.requests.map((request) => `${request.method} ${request.url}`)).toEqual(["POST /v1/research/quote"]);
    expect(JSON.parse(service.requests[0]!.body)).toEqual({
      question: "What ended the Nullification Crisis?",
      mode: "standard",
      include_sources: true,
      include_domains: ["loc.gov"],
    });
  });

  it("exits 4 when the balance does not cover the job, with the 402's message and where to buy credits; --json prints the quote", async () => {
    const service = await fakeService([json(200, quote(false))]);
    close = service.close;
    const run = await cli(["q?", "--quote"], service.baseUrl);
    expect(run.code).toBe(4);
    expect(run.stdout).toContain("  balance   10 credits ($0.10): NOT covered. This standard job needs 60 credits; the balance is 10.\n");
    expect(run.stderr).toBe(
      `Buy credits or a plan on the dashboard's Billing page (${service.baseUrl}/billing), or pick a cheaper mode with --mode (the prices: ${service.baseUrl}/api/billing/modes).\n`,
    );
    const printed = await cli(["q?", "--quote", "--json"], service.baseUrl);
    expect(printed.code).toBe(4);
    expect(JSON.parse(printed.stdout)).toEqual(quote(false));
  });
});

describe("deep-research plan, then a run of the reviewed plan", () => {
  const PLAN_ID = "4b1d8c3e-6a0f-4f8e-9d2a-0c5b7e1f3a92";
  const plan = {
    plan_id: PLAN_ID,
    question: FINISHED.question,
    mode: "standard",
    planner: "engine",
    sub_questions: [],
    queries: ["nullification crisis end", "compromise tariff 1833", "force bill 1833"],
    max_queries: 4,
    envelope: { max_waves: 2, max_searches: 12, max_pages: 20, max_wallclock_secs: 180 },
    quote: {
      mode: "standard",
      metered: false,
      credits_reserved: 60,
      max_charge_credits: 60,
      max_charge_usd: 0.6,
      envelope: { max_waves: 2, max_searches: 12, max_pages: 20, max_wallclock_secs: 180 },
      runs: "async",
      balance_credits: 500,
      covered: true,
      covered_by: "balance",
      follow_up: null,
      insufficient_credits: null,
    },
    created_at: "2026-11-28T04:00:00.000Z",
    expires_at: "2026-11-28T05:00:00.000Z",
  };

  it("prints the plan of the request a run would send, runs nothing; --json prints the ResearchPlan", async () => {
    const service = await fakeService([json(200, plan)]);
    close = service.close;
    const run = await cli(["plan", FINISHED.question, "--mode", "standard", "--exclude-domain", "example.com"], service.baseUrl);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toMatch(/^Plan for a standard job \(free: nothing ran, nothing was reserved or charged\):\n {2}plan_id {5}4b1d8c3e-/);
    expect(run.stdout).toContain("  expires_at  2026-11-28T05:00:00.000Z (a plan runs once)\n");
    expect(run.stdout).toContain(
      "  first searches (at most 4)\n    1. nullification crisis end\n    2. compromise tariff 1833\n    3. force bill 1833\n  envelope    up to 2 waves, 12 searches, 20 pages, 180 s\n  price       60 credits ($0.60), fixed (reserved when submitted)\n",
    );
    expect(service.requests.map((request) => `${request.method} ${request.url}`)).toEqual(["POST /v1/research/plan"]);
    expect(JSON.parse(service.requests[0]!.body)).toEqual({
      question: FINISHED.question,
      mode: "standard",
      include_sources: true,
      exclude_domains: ["example.com"],
    });

    const printed = await cli(["plan", FINISHED.question, "--json"], service.baseUrl);
    expect(printed).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(printed.stdout)).toEqual(plan);
  });

  it("runs the plan with the edited searches and sub-questions: the submit carries exactly plan_id, queries and sub_questions", async () => {
    const service = await fakeService([researchService(FINISHED)]);
    close = service.close;
    const run = await cli(
      [
        FINISHED.question,
        "--quiet",
        "--plan",
        PLAN_ID,
        "--query",
        "compromise tariff 1833",
        "--query",
        "clay calhoun compromise",
        "--sub-question",
        "Who brokered it?",
      ],
      service.baseUrl,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^# What ended the Nullification Crisis\?\n/);
    const submits = service.requests.filter((request) => request.method === "POST" && request.url === "/v1/research");
    expect(submits).toHaveLength(1);
    expect(JSON.parse(submits[0]!.body)).toEqual({
      question: FINISHED.question,
      mode: "standard",
      async: true,
      include_sources: true,
      plan_id: PLAN_ID,
      queries: ["compromise tariff 1833", "clay calhoun compromise"],
      sub_questions: ["Who brokered it?"],
    });
  });

  it("refuses --query without --plan (and plan without a question) with the usage exit code, sending nothing", async () => {
    const service = await fakeService([json(200, plan)]);
    close = service.close;
    const edits = await cli([FINISHED.question, "--query", "compromise tariff 1833"], service.baseUrl);
    expect(edits.code).toBe(2);
    expect(edits.stdout).toBe("");
    expect(edits.stderr).toMatch(/^--query edits a reviewed plan: it needs --plan <plan id>/);
    const empty = await cli(["plan"], service.baseUrl);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/^Give a question: deep-research plan "/);
    expect(service.requests).toEqual([]);
  });
});

/** A command as a person types it at the repository's root; no key, no service (--help and --version need neither). */
function typed(command: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: Record<string, string | undefined> = { ...process.env, DEEP_RESEARCH_API_KEY: undefined, DEEP_RESEARCH_BASE_URL: undefined };
  // npx never fetches a package here: without the repository's link it stops instead (as --no).
  env.npm_config_yes = "false";
  // As from a shell, not from inside an npm script (vitest may be one: npm test).
  for (const name of Object.keys(env)) if (name.startsWith("npm_") && name !== "npm_config_yes") delete env[name];
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolvePromise) => child.on("close", (code) => resolvePromise({ code, stdout, stderr })));
}

// Each test starts npm and the CLI (tsx): a second or two on a quiet machine, far more on a loaded
// one. The timeout guards against a hang, not speed.
describe("the CLI as the README runs it in this repository: stdout is only the CLI's", { timeout: 240_000 }, () => {
  const version = (JSON.parse(readFileSync("sdk/package.json", "utf8")) as { version: string }).version;

  it("npx deep-research runs this repository's CLI (npm install links it), with nothing of npm's on stdout", async () => {
    expect(realpathSync("node_modules/.bin/deep-research"), "npm install (its prepare script, scripts/link-cli.mjs) links the command").toBe(
      resolve("sdk/bin/deep-research.mjs"),
    );
    expect(await typed("npx", ["deep-research", "--version"])).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
    const [viaNpx, direct] = await Promise.all([typed("npx", ["deep-research", "--help"]), typed(process.execPath, ["sdk/bin/deep-research.mjs", "--help"])]);
    expect(direct.stdout).toMatch(/^Usage:\n {2}deep-research "question" \[options\]/);
    expect(viaNpx).toEqual(direct);
  });

  it("npm run --silent cli prints only the CLI's output; npm run cli puts npm's banner first, and the CLI says so on stderr", async () => {
    expect(await typed("npm", ["run", "--silent", "cli", "--", "--version"])).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
    const loud = await typed("npm", ["run", "cli", "--", "--version"]);
    expect(loud.code).toBe(0);
    expect(loud.stdout).toMatch(/^\n?> deep-research-api@[^\n]+ cli\n> node sdk\/bin\/deep-research\.mjs --version\n/);
    expect(loud.stdout.endsWith(`\n${version}\n`)).toBe(true);
    expect(loud.stderr).toBe(
      "deep-research: npm wrote its own banner at the top of stdout; `npx deep-research …` (or `npm run --silent cli -- …`) prints only the CLI's output.\n",
    );
  });
});

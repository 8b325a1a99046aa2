import { describe, expect, it } from "vitest";
import { parseCommand, UsageError } from "../../sdk/src/cli/args";
import { resultMarkdown } from "../../sdk/src/cli/markdown";
import { explain } from "../../sdk/src/cli/messages";
import { fractionDone, ProgressView } from "../../sdk/src/cli/progress";
import { planText } from "../../sdk/src/cli/plan";
import { quoteText } from "../../sdk/src/cli/quote";
import { DeepResearchError, ResearchCancelledError } from "../../sdk/src/index";
import { errorFor } from "../../sdk/src/errors";
import type { ModePrice, ResearchEvent, ResearchPlan, ResearchQuote, ResearchResult } from "../../sdk/src/index";

const usage = (argv: string[]) => {
  try {
    parseCommand(argv);
    return "parsed";
  } catch (error) {
    return error instanceof UsageError ? error.message : `unexpected ${String(error)}`;
  }
};

describe("the CLI's command line", () => {
  it("reads a question with its options, and the subcommands", () => {
    expect(
      parseCommand([
        "What about tariffs?",
        "--mode",
        "lite",
        "--collection",
        "a",
        "--collection",
        "b",
        "--web",
        "--json",
        "--webhook",
        "https://x.example/hook",
      ]),
    ).toEqual({
      kind: "research",
      question: "What about tariffs?",
      mode: "lite",
      json: true,
      collections: ["a", "b"],
      web: true,
      includeDomains: [],
      excludeDomains: [],
      webhookUrl: "https://x.example/hook",
      quote: false,
      quiet: false,
    });
    expect(parseCommand(["-m", "max", "--max-credits", "80", "--schema", "s.json", "Gold", "standard?"])).toMatchObject({
      question: "Gold standard?",
      mode: "max",
      maxCredits: 80,
      schemaFile: "s.json",
    });
    expect(parseCommand(["credits"])).toEqual({ kind: "credits", json: false });
    expect(parseCommand(["jobs", "--status", "failed", "--limit", "5"])).toEqual({ kind: "jobs", json: false, status: "failed", limit: 5 });
    expect(parseCommand(["cancel", "abc", "--json"])).toEqual({ kind: "cancel", json: true, id: "abc" });
    expect(parseCommand(["--", "credits"])).toMatchObject({ kind: "research", question: "credits" });
    expect(parseCommand(["q", "--quote", "--mode", "pro"])).toMatchObject({ kind: "research", question: "q", mode: "pro", quote: true });
    expect(parseCommand(["--help"])).toEqual({ kind: "help" });
  });

  it("says what is wrong with a command line it cannot run", () => {
    expect(usage([])).toMatch(/Give a question/);
    expect(usage(["q", "--mode", "turbo"])).toMatch(/--mode must be one of lite, standard, pro, max/);
    expect(usage(["q", "--mode", "max"])).toMatch(/needs --max-credits/);
    expect(usage(["q", "--max-credits", "1.5"])).toMatch(/positive whole number/);
    expect(usage(["q", "--web"])).toMatch(/only applies with --collection/);
    expect(usage(["q", "--status", "failed"])).toMatch(/applies to "jobs" only/);
    expect(usage(["credits", "--mode", "lite"])).toMatch(/does not apply to "credits"/);
    expect(usage(["jobs", "--quote"])).toMatch(/--quote does not apply to "jobs"/);
    expect(usage(["jobs", "--status", "done"])).toMatch(/--status must be one of/);
    expect(usage(["cancel"])).toMatch(/takes one job id/);
    expect(usage(["q", "--frobnicate"])).toMatch(/Unknown option '--frobnicate'/);
  });
});

const RESULT: ResearchResult = {
  id: "0b5f5c3e-6d0e-4a53-9f1f-1d2b2f4b9a11",
  status: "succeeded",
  question: "How did presidents\ndescribe tariffs?",
  brief: "Tariffs were debated [1], and revised [2].\n",
  answer: { text: "They were debated, then revised", confidence: "medium", citations: [0, 1] },
  typed: null,
  sources: [
    { url: "https://example.com/a (1)", title: "Message [draft]", domain: "example.com", published_at: "2024-05-01T09:30:00Z", author: "Jane Doe" },
    { url: "corpus://sotu.corpus/1890", title: "", domain: "sotu.corpus" },
  ],
  citations: [],
  credits_charged: 15,
  charge_basis: { rule: "mode_price", reason: "Charged the lite price, 15 credits ($0.15): the brief cites 2 sources that address the question." },
  cost_usd: 0.02,
  created_at: "2026-01-01T00:00:00.000Z",
  completed_at: "2026-01-01T00:00:01.000Z",
  error: null,
  latency_ms: 1000,
  wave_count: 1,
  previous_job_id: null,
  thread: [],
  partial: false,
};

describe("the CLI's output", () => {
  it("prints the short answer, then the brief as Markdown with the sources numbered as it cites them", () => {
    expect(resultMarkdown(RESULT)).toBe(
      "# How did presidents describe tariffs?\n\n**Answer:** They were debated, then revised [1][2] _(Medium confidence)_\n\n" +
        "Tariffs were debated [1], and revised [2].\n\n## Sources\n\n" +
        "1. [Message \\[draft\\]](https://example.com/a%20%281%29) — example.com — by Jane Doe, 2024-05-01\n" +
        "2. [corpus://sotu.corpus/1890](corpus://sotu.corpus/1890) — sotu.corpus\n",
    );
  });

  it("prints a model's report whole: its ## sections and **group** headings under the question's title, before the sources", () => {
    const brief =
      "Tariffs were debated [1].\n\n## Findings\n- Revised in 1890 [2].\n\n**Message [draft]**\n- Debated [1].\n\n## Open questions\n- Were they lowered?";
    const printed = resultMarkdown({ ...RESULT, brief: `${brief}\n` });
    expect(printed).toContain(`_(Medium confidence)_\n\n${brief}\n\n## Sources\n\n1. `);
    // The title is the one level-1 heading: the brief's sections sit beside the sources, under it.
    expect(printed.match(/^# /gm)).toHaveLength(1);
  });

  it("explains 401, 402, 429 and the rest in words, with distinct exit codes", () => {
    const base = "https://api.example";
    const failure = (status: number, code: string, message: string, extra: { retryAfter?: number; requestId?: string } = {}) =>
      explain(errorFor({ status, code, message, ...extra }), base);
    expect(failure(401, "unauthorized", "Invalid or revoked API key.")).toEqual({
      message: "Your API key was refused: set DEEP_RESEARCH_API_KEY to a key from the dashboard (API keys page, https://api.example/keys).",
      exitCode: 3,
    });
    const broke = failure(402, "insufficient_credits", "This max job needs 1000 credits; the balance is 500.");
    expect(broke.exitCode).toBe(4);
    expect(broke.message).toMatch(/balance is too low.*needs 1000 credits.*\n.*Billing page \(https:\/\/api\.example\/billing\)/);
    expect(failure(429, "rate_limited", "Too many requests.", { retryAfter: 42 })).toEqual({
      message: "Too many requests: retry in 42 s and run it again.",
      exitCode: 5,
    });
    expect(failure(400, "invalid_request", "Invalid request: collections: must be collection ids")).toMatchObject({ exitCode: 2 });
    expect(failure(500, "internal", "Boom.", { requestId: "req-1" }).message).toMatch(/request id req-1/);
    expect(explain(DeepResearchError.network(base, new TypeError("fetch failed")), base).message).toMatch(
      /Could not reach https:\/\/api\.example.*\n.*DEEP_RESEARCH_BASE_URL/,
    );
    const cancelled = explain(
      new ResearchCancelledError({ ...RESULT, status: "cancelled", credits_charged: 3, cancel_outcome: "cancelled", cancel_message: "Cancelled." }),
      base,
    );
    expect(cancelled).toEqual({
      message: `Cancelled job ${RESULT.id}: charged 3 credits ($0.03) for the work already done, the rest refunded.`,
      exitCode: 130,
    });
    // Ctrl-C after the job ended: the cancel stopped nothing, and the message says so (issue 38).
    const tooLate = explain(
      new ResearchCancelledError({ ...RESULT, status: "succeeded", credits_charged: 60, cancel_outcome: "already_finished", cancel_message: "Too late." }),
      base,
    );
    expect(tooLate).toEqual({
      message: `Job ${RESULT.id} had already succeeded when the cancel arrived: it was charged 60 credits ($0.60). Nothing was cancelled.`,
      exitCode: 130,
    });
  });
});

describe("the CLI's progress", () => {
  const standard: ModePrice = {
    mode: "standard",
    credits: 60,
    max_cost_usd: 0.6,
    max_wallclock_secs: 180,
    max_sources: 20,
    max_searches: 12,
    max_waves: 2,
    critic: false,
    async_by_default: true,
  };
  const progress = (id: number, stage: string, wave: number, cost: number): ResearchEvent =>
    ({ id, event: "progress", data: { stage, wave, searches: 1, pages: 0, cost_usd: cost } }) as ResearchEvent;
  const source = (id: number): ResearchEvent => ({ id, event: "source", data: { url: `https://s${id}.example`, title: "S", domain: "s.example" } });

  it("writes one plain line per stage or wave when stderr is not a terminal", () => {
    let written = "";
    const view = new ProgressView({ write: (text: string) => (written += text), isTTY: false }, standard);
    for (const event of [progress(1, "searching", 1, 0.005), source(2), source(3), progress(4, "searching", 1, 0.01), progress(5, "reading", 2, 0.051)])
      view.event(event);
    expect(written).toBe("searching · wave 1/2 · 0 sources · $0.005 / $0.600\nreading · wave 2/2 · 2 sources · $0.051 / $0.600\n");
  });

  it("redraws one bar in place on a terminal, and clears it at the end", () => {
    let written = "";
    const view = new ProgressView(
      { write: (text: string) => (written += text), isTTY: true, columns: 120 },
      { ...standard, mode: "max", max_cost_usd: null, max_waves: 4 },
      80,
    );
    view.event(progress(1, "reading", 2, 0.1));
    view.finish();
    expect(written).toBe(`\r\x1b[2K${"█".repeat(6)}${"░".repeat(14)}  32% reading · wave 2/4 · 0 sources · $0.100 / $0.800\r\x1b[2K`);
  });

  it("moves the bar through the waves to the end", () => {
    const at = (stage: string, wave: number) => fractionDone({ stage, wave, searches: 0, pages: 0, cost_usd: 0 } as never, 2);
    const path = [at("planning", 0), at("searching", 1), at("analyzing", 1), at("searching", 2), at("analyzing", 2), at("synthesizing", 2), at("done", 2)];
    expect([...path].sort((a, b) => a - b)).toEqual(path);
    expect(path.at(-1)).toBe(1);
  });
});

describe("the CLI's quote", () => {
  const quote: ResearchQuote = {
    mode: "max",
    metered: true,
    credits_reserved: 40,
    max_charge_credits: 40,
    max_charge_usd: 0.4,
    envelope: { max_waves: 4, max_searches: 60, max_pages: 120, max_wallclock_secs: 600 },
    runs: "async",
    balance_credits: 1,
    covered: false,
    covered_by: null,
    follow_up: null,
    insufficient_credits: "This max job needs 40 credits; the balance is 1.",
  };

  it("says the price, the envelope, how it runs and whether the balance covers it", () => {
    expect(quoteText(quote)).toBe(
      "Quote for a max job (nothing was reserved or charged):\n" +
        "  price     up to 40 credits ($0.40), metered (charged its work; 40 credits reserved when submitted)\n" +
        "  envelope  up to 4 waves, 60 searches, 120 pages, 600 s\n" +
        "  runs      async (the API answers 202; the job is followed to its result)\n" +
        "  balance   1 credit ($0.01): NOT covered. This max job needs 40 credits; the balance is 1.",
    );
    const lite = {
      ...quote,
      mode: "lite",
      metered: false,
      credits_reserved: 15,
      max_charge_credits: 15,
      runs: "sync",
      balance_credits: 500,
      covered: true,
      covered_by: "balance",
      insufficient_credits: null,
    } as const;
    expect(quoteText({ ...lite, envelope: { max_waves: 1, max_searches: 4, max_pages: 5, max_wallclock_secs: 60 } })).toBe(
      "Quote for a lite job (nothing was reserved or charged):\n" +
        "  price     15 credits ($0.15), fixed (reserved when submitted)\n" +
        "  envelope  up to 1 wave, 4 searches, 5 pages, 60 s\n" +
        "  runs      sync (the API answers with the result)\n" +
        "  balance   500 credits ($5.00): covered by the balance",
    );
  });
});

describe("deep-research plan and --plan", () => {
  const PLAN_ID = "4b1d8c3e-6a0f-4f8e-9d2a-0c5b7e1f3a92";

  it("reads plan with the research request's options, and a run of a plan with its edits", () => {
    expect(parseCommand(["plan", "Who", "approved", "R21?", "--mode", "lite", "--include-domain", "who.int", "--json"])).toEqual({
      kind: "plan",
      json: true,
      question: "Who approved R21?",
      mode: "lite",
      collections: [],
      web: false,
      includeDomains: ["who.int"],
      excludeDomains: [],
    });
    expect(parseCommand(["plan", "Q?", "-m", "max", "--max-credits", "80"])).toMatchObject({ kind: "plan", mode: "max", maxCredits: 80 });
    expect(parseCommand(["Q?", "--plan", PLAN_ID, "--query", "r21 approval", "--query", "who prequalification", "--sub-question", "When?"])).toMatchObject({
      kind: "research",
      question: "Q?",
      planId: PLAN_ID,
      queries: ["r21 approval", "who prequalification"],
      subQuestions: ["When?"],
    });
    // A plan run without edits sends neither list; "-- plan" asks the question "plan".
    expect(parseCommand(["Q?", "--plan", PLAN_ID])).not.toHaveProperty("queries");
    expect(parseCommand(["Q?", "--plan", PLAN_ID])).not.toHaveProperty("subQuestions");
    expect(parseCommand(["--", "plan"])).toMatchObject({ kind: "research", question: "plan" });
  });

  it("says what is wrong with a plan or a plan run it cannot send", () => {
    expect(usage(["plan"])).toMatch(/^Give a question: deep-research plan "/);
    expect(usage(["plan", "Q?", "--mode", "max"])).toMatch(/needs --max-credits/);
    expect(usage(["plan", "Q?", "--plan", PLAN_ID])).toBe('--plan does not apply to "plan".');
    expect(usage(["plan", "Q?", "--query", "x"])).toBe('--query does not apply to "plan".');
    expect(usage(["plan", "Q?", "--quote"])).toBe('--quote does not apply to "plan".');
    expect(usage(["Q?", "--query", "x"])).toBe('--query edits a reviewed plan: it needs --plan <plan id> (make one with: deep-research plan "question").');
    expect(usage(["Q?", "--sub-question", "x"])).toMatch(/^--sub-question edits a reviewed plan: it needs --plan/);
    expect(usage(["Q?", "--plan", PLAN_ID, "--quote"])).toMatch(/--quote does not apply with --plan/);
    expect(usage(["Q?", "--plan", PLAN_ID, "--query", "  "])).toBe("--query and --sub-question cannot be empty.");
    expect(usage(["credits", "--plan", PLAN_ID])).toBe('--plan does not apply to "credits".');
  });

  const plan: ResearchPlan = {
    plan_id: PLAN_ID,
    question: "Who approved the R21 malaria vaccine, and when?",
    mode: "max",
    planner: "model",
    sub_questions: ["Which agency approved it first?", "When did WHO prequalify it?"],
    queries: ["R21 malaria vaccine approval", "R21 WHO prequalification date"],
    max_queries: 8,
    envelope: { max_waves: 4, max_searches: 60, max_pages: 120, max_wallclock_secs: 600 },
    quote: {
      mode: "max",
      metered: true,
      credits_reserved: 80,
      max_charge_credits: 80,
      max_charge_usd: 0.8,
      envelope: { max_waves: 4, max_searches: 60, max_pages: 120, max_wallclock_secs: 600 },
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

  it("prints the plan: its id and expiry, planner, sub-questions, numbered searches, envelope, price, and how to run it", () => {
    expect(planText(plan)).toBe(
      "Plan for a max job (free: nothing ran, nothing was reserved or charged):\n" +
        `  plan_id     ${PLAN_ID}\n` +
        "  expires_at  2026-11-28T05:00:00.000Z (a plan runs once)\n" +
        "  planner     model (the configured model's plan stage)\n" +
        "  question    Who approved the R21 malaria vaccine, and when?\n" +
        "  sub-questions\n" +
        "    - Which agency approved it first?\n" +
        "    - When did WHO prequalify it?\n" +
        "  first searches (at most 8)\n" +
        "    1. R21 malaria vaccine approval\n" +
        "    2. R21 WHO prequalification date\n" +
        "  envelope    up to 4 waves, 60 searches, 120 pages, 600 s\n" +
        "  price       up to 80 credits ($0.80), metered (charged its work; 80 credits reserved when submitted)\n" +
        "  balance     500 credits ($5.00): covered by the balance\n" +
        "\n" +
        `Run it (with the same options): deep-research 'Who approved the R21 malaria vaccine, and when?' --mode max --max-credits 80 --plan ${PLAN_ID}\n` +
        'Edit it: add --query "..." once per first search (they replace the plan\'s, in order) and --sub-question "..." once per sub-question.',
    );
    const engine = planText({ ...plan, planner: "engine", sub_questions: [], question: "It's tariffs?", quote: { ...plan.quote, metered: false } });
    expect(engine).toContain("  planner     engine (the engine's own plan: no model planned it)\n  question    It's tariffs?\n  sub-questions\n    (none)\n");
    expect(engine).toContain(`Run it (with the same options): deep-research 'It'\\''s tariffs?' --mode max --plan ${PLAN_ID}\n`);
  });
});

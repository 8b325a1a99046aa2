import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Schemas } from "../src/api/client";
import { usdFromCents } from "../src/format";
import { Playground } from "../src/pages/Playground";
import { DEFAULT_FORM, initialForm, type PlaygroundForm, requestBodyFor, snippetRequest, toggleCollection, updateForm } from "../src/pages/playground/form";

const COLLECTION = "2f6c1a9e-4b3d-4e8a-9c71-5d0e8b7a3f12";
const OTHER_COLLECTION = "7a1d4c2b-9e8f-4a3b-8c6d-1e2f3a4b5c6d";
const JOB = "c3a9e1f2-7b4d-4c8e-9a6f-2d1e0b9c8a7f";
const PLAN = "0b7e1c52-3f0a-4d8e-9a51-6c2f4e8d9b17";

const form = (fields: Partial<PlaygroundForm>): PlaygroundForm => ({ ...DEFAULT_FORM, question: "What did presidents say about tariffs?", ...fields });

describe("requestBodyFor (the one request a playground form makes)", () => {
  it("sends the question and mode, always with the sources and async; every optional field left empty is left out", () => {
    const built = requestBodyFor(form({ include: "  ", exclude: "\n", schemaText: " ", wallclock: "" }), { metered: false });
    expect(built.problem).toBeNull();
    expect(built.body).toEqual({ question: "What did presidents say about tariffs?", mode: "standard", include_sources: true, async: true });
    expect(Object.keys(built.body)).toEqual(["question", "mode", "include_sources", "async"]);
  });

  it("sends the chosen mode", () => {
    expect(requestBodyFor(form({ mode: "pro" }), { metered: false }).body.mode).toBe("pro");
    expect(requestBodyFor(form({ mode: "lite" }), { metered: false }).body.mode).toBe("lite");
  });

  it("sends max_credits as a number in a metered mode only", () => {
    expect(requestBodyFor(form({ mode: "max", maxCredits: "500" }), { metered: true }).body.max_credits).toBe(500);
    expect(requestBodyFor(form({ mode: "standard", maxCredits: "500" }), { metered: false }).body).not.toHaveProperty("max_credits");
  });

  it("sends the wall-clock limit as a number", () => {
    expect(requestBodyFor(form({ wallclock: "90" }), { metered: false }).body.max_wallclock_secs).toBe(90);
  });

  it("splits the domains on commas and white space", () => {
    const { body } = requestBodyFor(form({ include: "congress.gov, loc.gov\narchives.gov", exclude: "example.com  example.org," }), { metered: false });
    expect(body.include_domains).toEqual(["congress.gov", "loc.gov", "archives.gov"]);
    expect(body.exclude_domains).toEqual(["example.com", "example.org"]);
  });

  it("sends a JSON Schema as the typed output's response_schema; a schema that is not JSON is a problem and stays out", () => {
    const schema = { type: "object", properties: { answer: { type: "string" } } };
    const typed = requestBodyFor(form({ schemaText: JSON.stringify(schema) }), { metered: false });
    expect(typed.problem).toBeNull();
    expect(typed.body.response_schema).toEqual(schema);
    const broken = requestBodyFor(form({ schemaText: '{"type": "object",' }), { metered: false });
    expect(broken.problem).toBe("The JSON Schema is not valid JSON.");
    expect(broken.body).not.toHaveProperty("response_schema");
  });

  it("sends the chosen collections with web (whether the default sources are searched too), and neither without collections", () => {
    expect(requestBodyFor(form({ collections: [COLLECTION] }), { metered: false }).body).toMatchObject({ collections: [COLLECTION], web: false });
    expect(requestBodyFor(form({ collections: [COLLECTION, OTHER_COLLECTION], alsoWeb: true }), { metered: false }).body).toMatchObject({
      collections: [COLLECTION, OTHER_COLLECTION],
      web: true,
    });
    const none = requestBodyFor(form({ collections: [], alsoWeb: true }), { metered: false }).body;
    expect(none).not.toHaveProperty("collections");
    expect(none).not.toHaveProperty("web");
  });

  it("gives the code samples the same request, less the playground's own include_sources and async", () => {
    const { body } = requestBodyFor(form({ mode: "max", maxCredits: "500", include: "loc.gov" }), { metered: true });
    expect(snippetRequest(body)).toEqual({ question: "What did presidents say about tariffs?", mode: "max", max_credits: 500, include_domains: ["loc.gov"] });
  });
});

describe("the playground form's state", () => {
  it("opens with the saved form, else what the URL brings, else the defaults", () => {
    expect(initialForm(null, new URLSearchParams())).toEqual(DEFAULT_FORM);
    const fromUrl = initialForm(null, new URLSearchParams({ question: "Q?", mode: "max", max_credits: "700", collection: COLLECTION }));
    expect(fromUrl).toEqual({ ...DEFAULT_FORM, question: "Q?", mode: "max", maxCredits: "700", collections: [COLLECTION] });
    const saved = initialForm(
      { question: "Saved?", mode: "pro", include: "loc.gov", collections: [] },
      new URLSearchParams({ question: "Q?", collection: COLLECTION }),
    );
    expect(saved).toEqual({ ...DEFAULT_FORM, question: "Saved?", mode: "pro", include: "loc.gov", collections: [] });
  });

  it("changes through one update: fields set, or a change computed from the form (a collection ticked or unticked)", () => {
    const start = form({ collections: [COLLECTION] });
    expect(updateForm(start, { wallclock: "30" })).toEqual({ ...start, wallclock: "30" });
    const ticked = updateForm(start, toggleCollection(OTHER_COLLECTION, true));
    expect(ticked.collections).toEqual([COLLECTION, OTHER_COLLECTION]);
    expect(updateForm(ticked, toggleCollection(COLLECTION, false)).collections).toEqual([OTHER_COLLECTION]);
    expect(start.collections).toEqual([COLLECTION]); // the old form is not changed
  });
});

// ---- The page, against a fake API: every request the page makes goes through fetch, recorded here. ----

interface Sent {
  method: string;
  path: string;
  body: unknown;
  headers: Headers;
}

const modes: Schemas["ModePrice"][] = [
  {
    mode: "lite",
    credits: 15,
    max_cost_usd: 0.15,
    max_wallclock_secs: 60,
    max_sources: 5,
    max_searches: 4,
    max_waves: 1,
    critic: false,
    async_by_default: false,
  },
  {
    mode: "standard",
    credits: 60,
    max_cost_usd: 0.6,
    max_wallclock_secs: 180,
    max_sources: 12,
    max_searches: 10,
    max_waves: 2,
    critic: false,
    async_by_default: true,
  },
  // A price over $1,000, where a hand-made "$" + toFixed(2) and the shared format differ ($2500.00 against $2,500.00).
  {
    mode: "pro",
    credits: 250_000,
    max_cost_usd: 2500,
    max_wallclock_secs: 600,
    max_sources: 30,
    max_searches: 24,
    max_waves: 3,
    critic: true,
    async_by_default: true,
  },
  {
    mode: "max",
    credits: null,
    max_cost_usd: null,
    max_wallclock_secs: 1800,
    max_sources: 60,
    max_searches: 48,
    max_waves: 4,
    critic: true,
    async_by_default: true,
  },
];

function quoteFor(body: Schemas["ResearchRequest"]): Schemas["ResearchQuote"] {
  const reserved = body.mode === "max" ? (body.max_credits ?? 0) : (modes.find((m) => m.mode === body.mode)?.credits ?? 0);
  return {
    balance_credits: 1_000_000,
    covered: true,
    covered_by: "balance",
    credits_reserved: reserved,
    envelope: { max_pages: 30, max_searches: 24, max_wallclock_secs: 600, max_waves: 3 },
    follow_up: null,
    insufficient_credits: null,
    max_charge_credits: reserved,
    max_charge_usd: reserved / 100,
    metered: body.mode === "max",
    mode: body.mode,
    runs: "async",
  };
}

let sent: Sent[] = [];

function json(value: unknown, status = 200): Response {
  return new Response(JSON.stringify(value), { status, headers: { "Content-Type": "application/json" } });
}

async function answer(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const text = request.method === "GET" ? "" : await request.clone().text();
  sent.push({ method: request.method, path: url.pathname, body: text ? JSON.parse(text) : undefined, headers: request.headers });
  const route = `${request.method} ${url.pathname}`;
  if (route === "GET /api/billing/modes") return json(modes);
  if (route === "GET /api/collections")
    return json([{ id: COLLECTION, name: "Speeches", description: null, document_count: 3, created_at: "2026-11-01T00:00:00.000Z" }]);
  if (route === "POST /api/playground/research/quote") return json(quoteFor(JSON.parse(text)));
  if (route === "POST /api/playground/research/plan") {
    const body = JSON.parse(text) as Schemas["ResearchRequest"];
    return json({
      plan_id: PLAN,
      question: body.question.trim(),
      mode: body.mode,
      sub_questions: ["What did they say before 1900?"],
      queries: ["tariff state of the union"],
      max_queries: 4,
      expires_at: "2026-11-28T12:00:00.000Z",
      created_at: "2026-11-28T11:00:00.000Z",
      envelope: { max_pages: 30, max_searches: 24, max_wallclock_secs: 600, max_waves: 3 },
      planner: "engine",
      quote: quoteFor(body),
    });
  }
  if (route === "POST /api/playground/research") return json({ id: JOB, status: "queued" }, 202);
  // The job's event stream stays open (the job runs on); the dashboard's search source is none here.
  if (route === `GET /api/playground/research/${JOB}/events`) return new Promise<Response>(() => {});
  return json({ error: { code: "not_found", message: `No ${route} in this test.` } }, 404);
}

beforeEach(() => {
  sent = [];
  sessionStorage.clear();
  vi.stubGlobal(
    "fetch",
    vi.fn((input: RequestInfo, init?: RequestInit) => answer(input instanceof Request ? input : new Request(input, init))),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPlayground(url = "/playground") {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[url]}>
        <Playground />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const requestsTo = (method: string, path: string) => sent.filter((s) => s.method === method && s.path === path);
/** The price quote waits for the form to rest (400 ms): these waits are held by the request arriving, the timeout only guards a hang. */
const settled = { timeout: 10_000 };

/** The JSON body of the curl sample shown under "Get code". */
function curlBody(): unknown {
  const code = within(screen.getByRole("tabpanel")).getByText(/curl -sS/).textContent ?? "";
  const match = /-d '([\s\S]*)'$/.exec(code);
  if (!match) throw new Error(`No body in the curl sample: ${code}`);
  return JSON.parse(match[1]!);
}

async function fillEveryField() {
  fireEvent.change(screen.getByLabelText("Question"), { target: { value: "What did presidents say about tariffs?" } });
  // The options are loaded before they are chosen.
  await screen.findByRole("option", { name: "max (metered)" });
  fireEvent.change(screen.getByLabelText("Mode"), { target: { value: "max" } });
  fireEvent.change(await screen.findByLabelText("Max credits"), { target: { value: "500" } });
  fireEvent.change(screen.getByLabelText("Wall-clock limit (s)"), { target: { value: "120" } });
  fireEvent.click(await screen.findByRole("checkbox", { name: "Speeches" }));
  fireEvent.click(screen.getByRole("checkbox", { name: "Also search the default sources" }));
  fireEvent.change(screen.getByLabelText("Only these domains"), { target: { value: "congress.gov, loc.gov" } });
  fireEvent.change(screen.getByLabelText("Never these domains"), { target: { value: "example.com" } });
  fireEvent.change(screen.getByLabelText("JSON Schema of the typed output (optional)"), {
    target: { value: '{"type": "object", "properties": {"answer": {"type": "string"}}}' },
  });
}

/** What the filled form sends, written out by hand (not by requestBodyFor). */
const FILLED_BODY = {
  question: "What did presidents say about tariffs?",
  mode: "max",
  max_credits: 500,
  max_wallclock_secs: 120,
  include_domains: ["congress.gov", "loc.gov"],
  exclude_domains: ["example.com"],
  response_schema: { type: "object", properties: { answer: { type: "string" } } },
  collections: [COLLECTION],
  web: true,
  include_sources: true,
  async: true,
};
const { include_sources: _s, async: _a, ...FILLED_SNIPPET } = FILLED_BODY;

describe("the Playground page", () => {
  it("sends exactly the filled form on Run, and prices and shows as code the same request", async () => {
    renderPlayground();
    await fillEveryField();
    // The quote asks about the form as it rests: the same body Run sends.
    await waitFor(() => expect(requestsTo("POST", "/api/playground/research/quote").at(-1)?.body).toEqual(FILLED_BODY), settled);
    expect(curlBody()).toEqual(FILLED_SNIPPET);

    fireEvent.click(screen.getByRole("button", { name: "Run research" }));
    await waitFor(() => expect(requestsTo("POST", "/api/playground/research")).toHaveLength(1));
    const [submitted] = requestsTo("POST", "/api/playground/research");
    expect(submitted!.body).toEqual(FILLED_BODY);
    expect(submitted!.headers.get("idempotency-key")).toMatch(/^[0-9a-f-]{36}$/);
    // The job runs: its stream is followed, and the form is kept for a reload.
    await waitFor(() => expect(requestsTo("GET", `/api/playground/research/${JOB}/events`)).toHaveLength(1));
    expect(JSON.parse(sessionStorage.getItem(`deep-research.playground.${JOB}`)!)).toMatchObject({
      question: FILLED_BODY.question,
      mode: "max",
      maxCredits: "500",
    });
  });

  it("reviews the plan of the same request, and Run then sends that request with the plan as edited", async () => {
    renderPlayground();
    await fillEveryField();
    fireEvent.click(screen.getByRole("button", { name: "Review plan" }));
    await waitFor(() => expect(requestsTo("POST", "/api/playground/research/plan")).toHaveLength(1));
    expect(requestsTo("POST", "/api/playground/research/plan")[0]!.body).toEqual(FILLED_BODY);
    fireEvent.change(await screen.findByLabelText("Sub-questions 1"), { target: { value: "What did they say after 1900?" } });

    fireEvent.click(screen.getByRole("button", { name: "Run research" }));
    await waitFor(() => expect(requestsTo("POST", "/api/playground/research")).toHaveLength(1));
    expect(requestsTo("POST", "/api/playground/research")[0]!.body).toEqual({
      ...FILLED_BODY,
      plan_id: PLAN,
      sub_questions: ["What did they say after 1900?"],
      queries: ["tariff state of the union"],
    });
  });

  it("sends the form with nothing optional as the bare request, from a suggestion in the URL", async () => {
    renderPlayground("/playground?question=How%20did%20presidents%20describe%20tariffs%3F");
    await screen.findByRole("option", { name: "standard (60 credits)" });
    await waitFor(() => expect(requestsTo("POST", "/api/playground/research/quote").length).toBeGreaterThan(0), settled);
    const bare = { question: "How did presidents describe tariffs?", mode: "standard", include_sources: true, async: true };
    expect(requestsTo("POST", "/api/playground/research/quote").at(-1)!.body).toEqual(bare);
    expect(curlBody()).toEqual({ question: bare.question, mode: "standard" });
    fireEvent.click(screen.getByRole("button", { name: "Run research" }));
    await waitFor(() => expect(requestsTo("POST", "/api/playground/research")).toHaveLength(1));
    expect(requestsTo("POST", "/api/playground/research")[0]!.body).toEqual(bare);
  });

  it("sends nothing while the JSON Schema is not JSON: no quote of it, no job, and the problem is said", async () => {
    renderPlayground("/playground?question=Tariffs%3F");
    await screen.findByRole("option", { name: "standard (60 credits)" });
    // The form as it opens is priced at once.
    await screen.findByRole("status", { name: "Price" }, settled);
    fireEvent.change(screen.getByLabelText("JSON Schema of the typed output (optional)"), { target: { value: '{"type":' } });
    fireEvent.click(screen.getByRole("button", { name: "Run research" }));
    expect(await screen.findByText("The JSON Schema is not valid JSON.")).toBeTruthy();
    expect(screen.getByText(/The snippets leave it out until it is/)).toBeTruthy();
    expect(curlBody()).toEqual({ question: "Tariffs?", mode: "standard" });
    expect(requestsTo("POST", "/api/playground/research")).toEqual([]);
    // Once the form rests, the price of the form without the schema is gone, and no quote asked about the broken form.
    await waitFor(() => expect(screen.queryByRole("status", { name: "Price" })).toBeNull(), settled);
    expect(requestsTo("POST", "/api/playground/research/quote").map((s) => s.body)).toEqual([
      { question: "Tariffs?", mode: "standard", include_sources: true, async: true },
    ]);
  });

  it("writes the mode's price and the quote in dollars with usdFromCents' format", async () => {
    renderPlayground("/playground?question=Tariffs%3F&mode=pro");
    // The line under the mode (the select's options name the credits only).
    await waitFor(() => expect(document.getElementById("mode-help")?.textContent).toContain(`250000 credits (${usdFromCents(250_000)})`));
    expect(document.getElementById("mode-help")?.textContent).toContain("($2,500.00)");
    const price = await screen.findByRole("status", { name: "Price" }, settled);
    expect(price.textContent).toContain(`(${usdFromCents(250_000)})`);
  });
});

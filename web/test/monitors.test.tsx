import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Schemas } from "../src/api/client";
import { Monitors } from "../src/pages/Monitors";
import { FOLLOW_FIRST_MS, FOLLOW_MAX_MS, followDelay } from "../src/pages/monitors/follow";

const MONITOR = "7d2c1f7e-3b9a-4f51-9c8e-1a2b3c4d5e6f";
const RUN = "4e1b2c3d-5f6a-4b7c-8d9e-0f1a2b3c4d5e";
const JOB = "c3a9e1f2-7b4d-4c8e-9a6f-2d1e0b9c8a7f";
const COLLECTION = "2f6c1a9e-4b3d-4e8a-9c71-5d0e8b7a3f12";
const QUESTION = "Which countries have approved R21?";

const monitor = (fields: Partial<Schemas["Monitor"]> = {}): Schemas["Monitor"] => ({
  id: MONITOR,
  question: QUESTION,
  mode: "lite",
  schedule: { every: "1d", cron: null },
  status: "active",
  paused_reason: null,
  next_run_at: "2026-11-29T09:00:00.000Z",
  last_run_at: "2026-11-28T09:00:00.000Z",
  credits_per_run: 15,
  max_credits_per_run: null,
  webhook_url: null,
  collections: null,
  web: false,
  include_domains: null,
  exclude_domains: null,
  created_at: "2026-11-28T09:00:00.000Z",
  updated_at: "2026-11-28T09:00:00.000Z",
  ...fields,
});

const run = (status: Schemas["MonitorRun"]["status"]): Schemas["MonitorRun"] => ({
  id: RUN,
  monitor_id: MONITOR,
  job_id: JOB,
  trigger: "manual",
  status,
  credits_charged: status === "running" ? null : 15,
  changed: null,
  diff: null,
  created_at: "2026-11-28T09:00:00.000Z",
  finished_at: status === "running" ? null : "2026-11-28T09:01:00.000Z",
});

// ---- A fake API: every request the page makes goes through fetch, recorded here and answered from this state. ----

interface Sent {
  method: string;
  path: string;
  body: unknown;
}

let sent: Sent[] = [];
let monitors: Schemas["Monitor"][] = [];
/** What each ask for the runs list answers, in order; the last one answers every later ask. */
let runAnswers: Schemas["MonitorRun"][][] = [];
let runsAsked = 0;

function json(value: unknown, status = 200): Response {
  return new Response(JSON.stringify(value), { status, headers: { "Content-Type": "application/json" } });
}

async function answer(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const text = request.method === "GET" || request.method === "DELETE" ? "" : await request.clone().text();
  const body = text ? JSON.parse(text) : undefined;
  sent.push({ method: request.method, path: url.pathname, body });
  const route = `${request.method} ${url.pathname}`;
  if (route === "GET /api/monitors") return json(monitors);
  if (route === "GET /api/collections")
    return json([{ id: COLLECTION, name: "Dam archive", description: null, document_count: 2, created_at: "2026-11-01T00:00:00.000Z" }]);
  if (route === `GET /api/monitors/${MONITOR}/runs`) {
    const runs = runAnswers[Math.min(runsAsked, runAnswers.length - 1)] ?? [];
    runsAsked += 1;
    return json(runs);
  }
  if (route === `DELETE /api/monitors/${MONITOR}`) {
    monitors = monitors.filter((m) => m.id !== MONITOR);
    return json({ deleted: true });
  }
  if (route === "POST /api/monitors") {
    const created = monitor({ question: body.question, mode: body.mode, collections: body.collections ?? null, web: body.web ?? false });
    monitors = [created];
    return json(created, 201);
  }
  return json({ error: { code: "not_found", message: `No ${route} in this test.` } }, 404);
}

beforeEach(() => {
  sent = [];
  monitors = [monitor()];
  runAnswers = [[run("succeeded")]];
  runsAsked = 0;
  vi.stubGlobal(
    "fetch",
    vi.fn((input: RequestInfo, init?: RequestInit) => answer(input instanceof Request ? input : new Request(input, init))),
  );
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function renderMonitors() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={["/monitors"]}>
        <Monitors />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...view, queryClient };
}

const requestsTo = (method: string, path: string) => sent.filter((s) => s.method === method && s.path === path);

/**
 * Resolves once the runs list's query (or the one `key` names) has taken in its `count`th answer (held by the query's own
 * state, seen through its cache's events: no clock involved).
 */
function answered(queryClient: QueryClient, count: number, key: unknown[] = ["monitor-runs", MONITOR]): Promise<void> {
  const done = () => (queryClient.getQueryState(key)?.dataUpdateCount ?? 0) >= count;
  if (done()) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = queryClient.getQueryCache().subscribe(() => {
      if (!done()) return;
      unsubscribe();
      resolve();
    });
  });
}

describe("followDelay (how long the page waits before asking about a running run again)", () => {
  it("starts at 2 s, grows by half each time the run is still going, and never waits over 30 s", () => {
    expect([1, 2, 3, 4].map(followDelay)).toEqual([2_000, 3_000, 4_500, 6_750]);
    expect(followDelay(1)).toBe(FOLLOW_FIRST_MS);
    expect(followDelay(9)).toBe(FOLLOW_MAX_MS);
    expect(followDelay(100)).toBe(FOLLOW_MAX_MS);
  });
});

describe("the Monitors page follows a running run", () => {
  // Only the intervals are faked (React Query's refetchInterval is one): the page's other timers and
  // the DOM library's run as usual, and the test moves the page's clock by hand.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
  });

  it("asks again while the run is running, with a growing wait, and stops (and reads the monitor again) once it settles", async () => {
    runAnswers = [[run("running")], [run("running")], [run("succeeded")]];
    const { queryClient } = renderMonitors();
    await answered(queryClient, 1);
    const runs = await screen.findByRole("table", { name: `Runs of ${QUESTION}` });
    expect(within(runs).getByText("running…")).toBeTruthy();
    expect(requestsTo("GET", "/api/monitors")).toHaveLength(1);

    // The first wait is 2 s: nothing is asked a moment before, the next ask comes at 2 s.
    await vi.advanceTimersByTimeAsync(FOLLOW_FIRST_MS - 1);
    expect(runsAsked).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await answered(queryClient, 2);
    expect(runsAsked).toBe(2);
    expect(within(runs).getByText("running…")).toBeTruthy();

    // Still running: the next wait is longer (3 s).
    await vi.advanceTimersByTimeAsync(followDelay(2) - 1);
    expect(runsAsked).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    await answered(queryClient, 3);
    expect(runsAsked).toBe(3);

    // Settled: shown as such without a reload, and no timer is left to ask again.
    expect(await within(runs).findByText("baseline (first run)")).toBeTruthy();
    expect(within(runs).queryByText("running…")).toBeNull();
    expect(within(runs).getByText("succeeded")).toBeTruthy();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(runsAsked).toBe(3);
    // The monitor is read again once (its next run time, or a pause the run caused).
    await answered(queryClient, 2, ["monitors", 0]);
    expect(requestsTo("GET", "/api/monitors")).toHaveLength(2);
  });

  it("asks nothing again while every run is settled", async () => {
    runAnswers = [[run("succeeded")]];
    const { queryClient } = renderMonitors();
    await answered(queryClient, 1);
    expect(await screen.findByText("baseline (first run)")).toBeTruthy();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(runsAsked).toBe(1);
  });

  it("stops following when the page goes away", async () => {
    runAnswers = [[run("running")]];
    const { queryClient, unmount } = renderMonitors();
    await answered(queryClient, 1);
    expect(await screen.findByText("running…")).toBeTruthy();
    expect(vi.getTimerCount()).toBe(1);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(runsAsked).toBe(1);
  });
});

describe("deleting a monitor", () => {
  it("asks in the app's dialog, deletes nothing on Cancel, and deletes on the dialog's Delete", async () => {
    renderMonitors();
    const card = await screen.findByRole("article", { name: QUESTION });

    fireEvent.click(within(card).getByRole("button", { name: "Delete" }));
    const asked = await screen.findByRole("dialog", { name: `Delete the monitor "${QUESTION}"?` });
    expect(asked.textContent).toContain("the record of its runs is deleted");
    expect(requestsTo("DELETE", `/api/monitors/${MONITOR}`)).toEqual([]);
    fireEvent.click(within(asked).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(requestsTo("DELETE", `/api/monitors/${MONITOR}`)).toEqual([]);
    expect(screen.getByRole("article", { name: QUESTION })).toBeTruthy();

    fireEvent.click(within(card).getByRole("button", { name: "Delete" }));
    const again = await screen.findByRole("dialog", { name: `Delete the monitor "${QUESTION}"?` });
    fireEvent.click(within(again).getByRole("button", { name: "Delete" }));
    expect(await screen.findByText(/No monitors yet/)).toBeTruthy();
    expect(requestsTo("DELETE", `/api/monitors/${MONITOR}`)).toHaveLength(1);
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});

describe("creating a monitor", () => {
  function fill() {
    const form = screen.getByRole("form", { name: "Create a monitor" });
    fireEvent.change(within(form).getByLabelText("Question"), { target: { value: QUESTION } });
    fireEvent.change(within(form).getByLabelText("Mode"), { target: { value: "standard" } });
    fireEvent.change(within(form).getByLabelText("Every"), { target: { value: "2d" } });
    return form;
  }

  it("sends the collections chosen, and whether the default sources are searched too, as the API's collections and web", async () => {
    monitors = [];
    renderMonitors();
    const form = fill();
    fireEvent.click(await within(form).findByRole("checkbox", { name: "Dam archive" }));
    fireEvent.click(within(form).getByRole("checkbox", { name: "Also search the default sources" }));
    fireEvent.click(within(form).getByRole("button", { name: "Create monitor" }));
    await waitFor(() => expect(requestsTo("POST", "/api/monitors")).toHaveLength(1));
    expect(requestsTo("POST", "/api/monitors")[0]!.body).toEqual({
      question: QUESTION,
      mode: "standard",
      schedule: { every: "2d" },
      collections: [COLLECTION],
      web: true,
    });
    // The new monitor's card names the collection it searches; the form is cleared.
    const card = await screen.findByRole("article", { name: QUESTION });
    expect(card.textContent).toContain("searches Dam archive and the default sources");
    expect((within(form).getByRole("checkbox", { name: "Dam archive" }) as HTMLInputElement).checked).toBe(false);
  });

  it("sends neither collections nor web when no collection is chosen", async () => {
    monitors = [];
    renderMonitors();
    const form = fill();
    await within(form).findByRole("checkbox", { name: "Dam archive" });
    fireEvent.click(within(form).getByRole("button", { name: "Create monitor" }));
    await waitFor(() => expect(requestsTo("POST", "/api/monitors")).toHaveLength(1));
    expect(requestsTo("POST", "/api/monitors")[0]!.body).toEqual({ question: QUESTION, mode: "standard", schedule: { every: "2d" } });
  });
});

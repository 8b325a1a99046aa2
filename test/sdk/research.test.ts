import { describe, expect, it } from "vitest";
import { DeepResearchError, ResearchCancelledError } from "../../sdk/src/errors";
import { research, type ResearchClient, type Submitted } from "../../sdk/src/research";
import type { ResearchEvent, ResearchResult } from "../../sdk/src/types";

const job = (status: ResearchResult["status"], credits = 0): ResearchResult => ({
  id: "job-1",
  status,
  question: "q",
  brief: status === "succeeded" ? "b [1]" : null,
  answer: null,
  typed: null,
  sources: [],
  citations: [],
  credits_charged: credits,
  charge_basis: { rule: status === "succeeded" ? "mode_price" : "reserved", reason: "" },
  cost_usd: 0,
  created_at: "2026-01-01T00:00:00.000Z",
  completed_at: null,
  error: null,
  latency_ms: null,
  wave_count: null,
  previous_job_id: null,
  thread: [],
  partial: false,
});

const accepted: Submitted = {
  status: 202,
  idempotencyKey: "k",
  job: { id: "job-1", status: "pending", status_url: "http://x/v1/research/job-1", events_url: "http://x/v1/research/job-1/events" },
};

/** A client double: what research() asked of it, and scripted answers. */
function double(overrides: Partial<ResearchClient> & { polls?: ResearchResult[] } = {}) {
  const calls: string[] = [];
  const polls = [...(overrides.polls ?? [])];
  const client: ResearchClient = {
    create: async (_question, options) => {
      calls.push(`submit async=${String(options.async)} signal=${options.signal ? "yes" : "no"}`);
      return accepted;
    },
    get: async () => {
      calls.push("get");
      return polls.shift() ?? job("succeeded", 60);
    },
    cancel: async () => {
      calls.push("cancel");
      return { ...job("cancelled", 7), cancel_outcome: "cancelled", cancel_message: "Cancelled: the job was charged 7 credits ($0.07)." };
    },
    // biome-ignore lint/correctness/useYield: a stream that fails before its first event.
    stream: async function* () {
      calls.push("stream");
      throw new DeepResearchError({ status: 0, code: "network_error", message: "event streams are blocked here" });
    },
    ...overrides,
  };
  return { client, calls };
}

describe("research()", () => {
  it("polls the job when its event stream cannot be followed", async () => {
    const { client, calls } = double({ polls: [job("running"), job("running"), job("succeeded", 60)] });
    const result = await research(client, "q", { pollIntervalMs: 1 });
    expect(result).toMatchObject({ status: "succeeded", credits_charged: 60 });
    expect(calls).toEqual(["submit async=undefined signal=no", "stream", "get", "get", "get"]);
  });

  it("does not poll past an answer: a 4xx from the stream is thrown", async () => {
    const { client, calls } = double({
      // biome-ignore lint/correctness/useYield: a stream that fails before its first event.
      stream: async function* () {
        throw new DeepResearchError({ status: 404, code: "not_found", message: "Research job not found." });
      },
    });
    await expect(research(client, "q")).rejects.toMatchObject({ status: 404 });
    expect(calls).toEqual(["submit async=undefined signal=no"]);
  });

  it("with a signal, submits asynchronously without it, then cancels the job when aborted (also while polling)", async () => {
    const controller = new AbortController();
    const { client, calls } = double({ polls: [job("running"), job("running"), job("running"), job("running")] });
    const pending = research(client, "q", { signal: controller.signal, pollIntervalMs: 5 });
    setTimeout(() => controller.abort(new Error("stop")), 12);
    const thrown = await pending.catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(ResearchCancelledError);
    expect(thrown).toMatchObject({ job: { status: "cancelled", credits_charged: 7 }, cause: new Error("stop") });
    expect(calls[0]).toBe("submit async=true signal=no");
    expect(calls.at(-1)).toBe("cancel");
  });

  it("aborting mid-stream cancels; an explicit async: false is respected; an aborted signal submits nothing", async () => {
    const controller = new AbortController();
    const { client, calls } = double({
      stream: async function* (_id, options) {
        calls.push("stream");
        yield { id: 1, event: "status", data: { status: "running" } } as ResearchEvent;
        options?.signal?.throwIfAborted();
      },
    });
    await expect(research(client, "q", { signal: controller.signal, onEvent: () => controller.abort() })).rejects.toBeInstanceOf(ResearchCancelledError);
    expect(calls).toEqual(["submit async=true signal=no", "stream", "cancel"]);

    const sync = double({ create: async (_q, options) => ({ status: 200, idempotencyKey: "k", result: job(options.signal ? "succeeded" : "failed") }) });
    expect((await research(sync.client, "q", { async: false, signal: new AbortController().signal })).status).toBe("succeeded");

    const none = double();
    await expect(research(none.client, "q", { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
    expect(none.calls).toEqual([]);
  });
});

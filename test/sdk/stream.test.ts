import { describe, expect, it } from "vitest";
import { DeepResearchError } from "../../sdk/src/errors";
import { followEvents } from "../../sdk/src/stream";
import type { ResearchEvent } from "../../sdk/src/types";

const frame = (id: number, event: string, data: unknown) => `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const EVENTS = [
  frame(1, "status", { status: "pending" }),
  frame(2, "status", { status: "running" }),
  frame(3, "progress", { stage: "searching", wave: 1, searches: 1, pages: 0, cost_usd: 0.005 }),
  frame(4, "source", { url: "https://a.example", title: "A", domain: "a.example" }),
  frame(5, "future_event", { ignored: true }),
  frame(6, "result", { id: "job", status: "succeeded" }),
];

/** A body that sends `text` and then, when `failAfter` is set, errors as a dropped connection does. */
function body(text: string, failAfter = false): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream({
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(new TextEncoder().encode(text));
      } else if (failAfter) controller.error(new TypeError("terminated: other side closed"));
      else controller.close();
    },
  });
}

/** The service's replay: every event after `lastEventId`. */
const replayAfter = (lastEventId: number) => EVENTS.filter((_, index) => index + 1 > lastEventId).join("");

async function collect(events: AsyncIterable<ResearchEvent>) {
  const seen: ResearchEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe("following a job's events", () => {
  it("resumes after a dropped connection with Last-Event-ID: nothing lost, nothing repeated, unknown events skipped", async () => {
    const asked: number[] = [];
    const events = await collect(
      followEvents(
        async (lastEventId) => {
          asked.push(lastEventId);
          // The first connection breaks in the middle of event 3's frame.
          if (asked.length === 1) return body(replayAfter(0).slice(0, replayAfter(0).indexOf("searching")), true);
          return body(replayAfter(lastEventId));
        },
        { reconnectDelayMs: 1 },
      ),
    );
    expect(asked).toEqual([0, 2]);
    expect(events.map((event) => [event.id, event.event])).toEqual([
      [1, "status"],
      [2, "status"],
      [3, "progress"],
      [4, "source"],
      [6, "result"],
    ]);
    expect(events.at(-1)!.data).toEqual({ id: "job", status: "succeeded" });
  });

  it("reconnects when the stream ends early, and starts after the lastEventId it is given", async () => {
    const asked: number[] = [];
    const events = await collect(
      followEvents(
        async (lastEventId) => {
          asked.push(lastEventId);
          return body(asked.length === 1 ? EVENTS.slice(3, 4).join("") : replayAfter(lastEventId));
        },
        { lastEventId: 3, reconnectDelayMs: 1 },
      ),
    );
    expect(asked).toEqual([3, 4]);
    expect(events.map((event) => event.id)).toEqual([4, 6]);
  });

  it("gives up after maxReconnects in a row without a new event; a 4xx at once", async () => {
    let connections = 0;
    const dropping = followEvents(
      async () => {
        connections++;
        return body("", true);
      },
      { maxReconnects: 2, reconnectDelayMs: 1 },
    );
    await expect(collect(dropping)).rejects.toMatchObject({ code: "network_error" });
    expect(connections).toBe(3);

    connections = 0;
    const missing = followEvents(async () => {
      connections++;
      throw new DeepResearchError({ status: 404, code: "not_found", message: "Research job not found." });
    });
    await expect(collect(missing)).rejects.toMatchObject({ status: 404 });
    expect(connections).toBe(1);
  });

  it("stops with the signal's reason when aborted", async () => {
    const controller = new AbortController();
    const events = followEvents(async () => body(EVENTS.slice(0, 2).join("")), { signal: controller.signal, reconnectDelayMs: 50 });
    const first = await events.next();
    expect(first.value).toMatchObject({ id: 1 });
    controller.abort(new Error("stop"));
    await expect(collect(events)).rejects.toThrow("stop");
  });
});

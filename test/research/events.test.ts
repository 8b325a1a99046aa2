import { afterEach, describe, expect, it } from "vitest";
import { call, expectError, json } from "../helpers";
import {
  apiCaller,
  type ApiCaller,
  corpusLoaded,
  eventsOf,
  eventually,
  expectShortAnswerIn,
  holdTasks,
  openEvents,
  readSse,
  research,
  type SseFrame,
  waitForTerminal,
} from "./helpers";

let hold: ReturnType<typeof holdTasks> | null = null;
afterEach(async () => {
  await hold?.release();
  hold = null;
});

async function asyncJob(caller: ApiCaller, question = "What ended the Nullification Crisis?") {
  const response = await research(caller, { question });
  expect(response.status).toBe(202);
  return (await json(response)).id as string;
}

/** What a client keeps of an event (the leading comment carries the emission time, which differs per connection). */
const essence = (events: SseFrame[]) => events.map(({ id, event, data }) => ({ id, event, data }));

function expectWellFormed(events: SseFrame[], final: unknown) {
  const ids = events.map((event) => event.id!);
  for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1]!);
  expect(events.at(-1)).toMatchObject({ event: "result", data: final });
  expect(events.filter((event) => event.event === "result")).toHaveLength(1);
  for (const event of events) expect(["status", "progress", "source", "result", "error"]).toContain(event.event);
}

describe("GET /v1/research/{id}/events", () => {
  it("streams status, progress, source and the result last, with increasing ids", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    hold = holdTasks();
    const id = await asyncJob(caller);
    const response = await openEvents(caller, id);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
    expect(["identity", null]).toContain(response.headers.get("Content-Encoding"));
    expect(response.headers.get("Cache-Control")).toMatch(/no-cache/);
    expect(response.headers.get("X-Request-Id")).toBeTruthy();
    const streamed = readSse(response);
    await eventually(() => hold!.heldFor(id).length > 0, "the first wave");
    await hold.release();
    const events = eventsOf(await streamed);
    const final = await waitForTerminal(caller, id);
    expect(final.status).toBe("succeeded");
    expectWellFormed(events, final);
    expectShortAnswerIn(events.at(-1)!.data);

    const names = events.map((event) => event.event);
    expect(events.filter((event) => event.event === "status").map((event) => event.data.status)).toEqual(["pending", "running", "succeeded"]);
    const progress = events.filter((event) => event.event === "progress");
    expect(progress.length).toBeGreaterThan(0);
    for (const event of progress) {
      expect(Object.keys(event.data).sort()).toEqual(["cost_usd", "pages", "searches", "stage", "wave"]);
      expect(event.data).toMatchObject({
        stage: expect.any(String),
        wave: expect.any(Number),
        searches: expect.any(Number),
        pages: expect.any(Number),
        cost_usd: expect.any(Number),
      });
    }
    const sources = events.filter((event) => event.event === "source");
    expect(sources.length).toBeGreaterThan(0);
    for (const event of sources) expect(event.data).toMatchObject({ url: expect.any(String), title: expect.any(String), domain: expect.any(String) });
    expect(names.indexOf("progress")).toBeLessThan(names.indexOf("result"));
  });

  it("replays only the events after Last-Event-ID on a reconnect", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    hold = holdTasks();
    const id = await asyncJob(caller);
    await eventually(() => hold!.heldFor(id).length > 0, "the first wave");
    // First connection: read what exists so far, then drop it.
    const before = eventsOf(await readSse(await openEvents(caller, id), (_frame, all) => eventsOf(all).length >= 2));
    const last = before.at(-1)!.id!;
    await hold.release();
    const final = await waitForTerminal(caller, id);

    const full = eventsOf(await readSse(await openEvents(caller, id)));
    expectWellFormed(full, final);
    const resumed = eventsOf(await readSse(await openEvents(caller, id, { "Last-Event-ID": String(last) })));
    expect(resumed.length).toBeGreaterThan(0);
    expect(resumed.every((event) => event.id! > last)).toBe(true);
    expect(essence(resumed)).toEqual(essence(full.filter((event) => event.id! > last)));
    expect([...before, ...resumed].map((event) => event.id)).toEqual(full.map((event) => event.id));
  });

  it("a terminal job streams its result at once and ends", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const done = await json(await research(caller, { question: "What was the Smoot-Hawley Tariff Act?", mode: "lite" }));
    const events = eventsOf(await readSse(await openEvents(caller, done.id)));
    expectWellFormed(events, done);
    // After the last id there is nothing more, and the stream still ends.
    const after = eventsOf(await readSse(await openEvents(caller, done.id, { "Last-Event-ID": String(events.at(-1)!.id) })));
    expect(after).toEqual([]);
  });

  it("two concurrent subscribers receive the same events", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    hold = holdTasks();
    const id = await asyncJob(caller);
    const [a, b] = [readSse(await openEvents(caller, id)), readSse(await openEvents(caller, id))];
    await eventually(() => hold!.heldFor(id).length > 0, "the first wave");
    await hold.release();
    const [eventsA, eventsB] = [eventsOf(await a), eventsOf(await b)];
    const final = await waitForTerminal(caller, id);
    expectWellFormed(eventsA, final);
    expect(essence(eventsB)).toEqual(essence(eventsA));
  });

  it("sends keep-alive comments while the job is quiet", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    hold = holdTasks();
    const id = await asyncJob(caller);
    await eventually(() => hold!.heldFor(id).length > 0, "the first wave");
    const frames = await readSse(await openEvents(caller, id), (frame) => frame.comments.includes("keep-alive"));
    expect(frames.at(-1)!.comments).toContain("keep-alive");
    expect(frames.at(-1)!.event).toBeUndefined();
  });

  it("the playground serves the same stream under JWT", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const done = await json(await research(caller, { question: "What was the Tariff of 1828?", mode: "lite" }));
    const response = await call(`/api/playground/research/${done.id}/events`, { token: caller.accessToken });
    expect(response.status).toBe(200);
    expectWellFormed(eventsOf(await readSse(response)), done);
    await expectError(await call(`/api/playground/research/${done.id}/events`, { token: caller.key }), 401, "unauthorized");
  });
});

import { describe, expect, it } from "vitest";
import { type JobStreamEvent, sseEvents } from "../../src/routes/mcp/sse-reader";

/** Feeds `chunks` as a body and collects the events read from it. */
async function read(chunks: string[]): Promise<JobStreamEvent[]> {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  const events: JobStreamEvent[] = [];
  for await (const event of sseEvents(body.getReader())) events.push(event);
  return events;
}

describe("sseEvents", () => {
  it("reads the job stream's frames: id, name and JSON data, skipping comments", async () => {
    const events = await read([
      ": stream open\n\n",
      ': emitted_at=1\nid: 1\nevent: status\ndata: {"status":"running"}\n\n',
      ": keep-alive\n\n",
      'id: 2\nevent: progress\ndata: {"stage":"searching","wave":1}\n\n',
    ]);
    expect(events).toEqual([
      { id: 1, event: "status", data: { status: "running" } },
      { id: 2, event: "progress", data: { stage: "searching", wave: 1 } },
    ]);
  });

  it("joins a frame split across chunks, even inside a multi-byte character, and accepts CRLF", async () => {
    const bytes = new TextEncoder().encode('id: 7\r\nevent: source\r\ndata: {"title":"Señor"}\r\n\r\n');
    const cut = bytes.indexOf(0xc3) + 1; // between the two bytes of ñ
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, cut));
        controller.enqueue(bytes.slice(cut));
        controller.close();
      },
    });
    const events: JobStreamEvent[] = [];
    for await (const event of sseEvents(body.getReader())) events.push(event);
    expect(events).toEqual([{ id: 7, event: "source", data: { title: "Señor" } }]);
  });

  it("ignores an unfinished last frame and a frame without data", async () => {
    expect(await read(["id: 1\nevent: status\n\n", 'id: 2\nevent: result\ndata: {"a"'])).toEqual([]);
  });

  it("ends when the reader is cancelled mid-read", async () => {
    const body = new ReadableStream<Uint8Array>({ start() {} }); // never sends anything
    const reader = body.getReader();
    const next = sseEvents(reader).next();
    await reader.cancel();
    expect(await next).toEqual({ done: true, value: undefined });
  });
});

import { describe, expect, it } from "vitest";
import { SseParser } from "../../sdk/src/sse";

const STREAM =
  ": stream open\r\n\r\n" +
  'id: 1\r\nevent: status\r\ndata: {"status":"pending"}\r\n\r\n' +
  ": keep-alive\n\n" +
  'id: 2\nevent: progress\ndata: {"stage":"planning",\ndata: "wave":0}\n\n' +
  'id: 3\revent: result\rdata: {"id":"x"}\r\r';

const EXPECTED = [
  { id: "1", event: "status", data: '{"status":"pending"}' },
  { id: "2", event: "progress", data: '{"stage":"planning",\n"wave":0}' },
  { id: "3", event: "result", data: '{"id":"x"}' },
];

describe("the SSE parser", () => {
  it("reads events with LF, CRLF and CR line ends, skipping comments and joining data lines", () => {
    const parser = new SseParser();
    // The last event ends with CR CR: the stream's end says no LF follows.
    expect([...parser.push(STREAM), ...parser.end()]).toEqual(EXPECTED);
  });

  it("gives the same events however the bytes are split (a CRLF split across chunks included)", () => {
    const bytes = new TextEncoder().encode(STREAM);
    for (let cut = 1; cut < bytes.length; cut++) {
      const parser = new SseParser();
      expect([...parser.push(bytes.slice(0, cut)), ...parser.push(bytes.slice(cut)), ...parser.end()], `cut at ${cut}`).toEqual(EXPECTED);
    }
    const parser = new SseParser();
    expect([...[...bytes].flatMap((byte) => parser.push(new Uint8Array([byte]))), ...parser.end()]).toEqual(EXPECTED);
  });

  it("decodes a multi-byte character split between chunks", () => {
    const bytes = new TextEncoder().encode('id: 1\nevent: source\ndata: {"title":"Ré"}\n\n');
    const split = bytes.indexOf(0xc3) + 1;
    const parser = new SseParser();
    expect([...parser.push(bytes.slice(0, split)), ...parser.push(bytes.slice(split))]).toEqual([{ id: "1", event: "source", data: '{"title":"Ré"}' }]);
  });

  it("never dispatches a frame that was cut off before its blank line", () => {
    const parser = new SseParser();
    expect(parser.push('id: 1\nevent: status\ndata: {"status":"running"}\n')).toEqual([]);
    expect(parser.end()).toEqual([]);
  });
});

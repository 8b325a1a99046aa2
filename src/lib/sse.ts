/** Server-Sent Events framing (https://html.spec.whatwg.org/multipage/server-sent-events.html). */
const encoder = new TextEncoder();

/**
 * One event. Its first line is a comment with the emission time (epoch ms): clients ignore
 * comments, and the SSE fan-out benchmark measures delivery delay with it.
 */
export function sseEvent(id: number, event: string, data: unknown, emittedAt = Date.now()): Uint8Array {
  return encoder.encode(`: emitted_at=${emittedAt}\nid: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

export function sseComment(text: string): Uint8Array {
  return encoder.encode(`: ${text}\n\n`);
}

export const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  Connection: "keep-alive",
  // No proxy buffering and no compression: events must reach subscribers as they happen.
  "X-Accel-Buffering": "no",
  "Content-Encoding": "identity",
} as const;

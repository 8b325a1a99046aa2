/** One Server-Sent Event of a job's stream (decisions.md "Events"): its id, name and parsed data. */
export interface JobStreamEvent {
  id: number;
  event: string;
  data: unknown;
}

/**
 * Splits an SSE body into events as they arrive. Comment lines (keep-alives, emission times) are
 * skipped, and a frame without data is no event. Reads through the caller's reader, so the caller
 * can end a pending read at once with `reader.cancel()` (the generator then simply returns).
 */
export async function* sseEvents(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncGenerator<JobStreamEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replaceAll("\r\n", "\n");
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = parseFrame(frame);
      if (event) yield event;
    }
  }
}

function parseFrame(frame: string): JobStreamEvent | null {
  let id = 0;
  let event = "message";
  const data: string[] = [];
  for (const line of frame.split("\n")) {
    if (line.startsWith("id:")) id = Number(line.slice(3).trim()) || 0;
    else if (line.startsWith("event:")) event = line.slice(6).trim();
    else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
  }
  return data.length > 0 ? { id, event, data: JSON.parse(data.join("\n")) } : null;
}

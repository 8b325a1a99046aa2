import { ApiError, authedFetch } from "../api/client";

/** One Server-Sent Event of a job's stream (decisions.md "Events"). */
export interface JobEvent {
  id: number;
  event: string;
  data: unknown;
}

/** Splits an SSE body into events as they arrive; comment lines (keep-alives) are skipped. */
async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<JobEvent> {
  const reader = body.getReader();
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
      let id = 0;
      let event = "message";
      const data: string[] = [];
      for (const line of frame.split("\n")) {
        if (line.startsWith("id:")) id = Number(line.slice(3).trim());
        else if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
      }
      if (data.length > 0) yield { id, event, data: JSON.parse(data.join("\n")) };
    }
  }
}

const RECONNECT_DELAYS_MS = [500, 1000, 2000, 4000, 8000];

/**
 * Follows a job's event stream until its `result` (or `error`) event. The stream goes through
 * fetch, not EventSource, because it needs the Authorization header. A dropped connection is
 * resumed with Last-Event-ID, so no event is lost or seen twice; aborting `signal` stops it.
 */
export async function followJob(eventsUrl: string, onEvent: (event: JobEvent) => void, signal: AbortSignal): Promise<void> {
  let lastEventId = 0;
  let failures = 0;
  while (!signal.aborted) {
    let finished = false;
    try {
      const headers = lastEventId > 0 ? { "Last-Event-ID": String(lastEventId) } : undefined;
      const response = await authedFetch(new Request(eventsUrl, { headers, signal }));
      if (!response.ok) throw ApiError.from(await response.json().catch(() => null), response);
      for await (const event of readEvents(response.body!)) {
        lastEventId = event.id || lastEventId;
        failures = 0;
        onEvent(event);
        if (event.event === "result" || event.event === "error") finished = true;
      }
      if (finished) return;
    } catch (error) {
      if (signal.aborted) return;
      // A 4xx will not get better by asking again (unknown job, session over).
      if (error instanceof ApiError && error.status < 500 && error.status !== 429) throw error;
      if (failures >= RECONNECT_DELAYS_MS.length) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, RECONNECT_DELAYS_MS[Math.min(failures++, RECONNECT_DELAYS_MS.length - 1)]));
  }
}

import { SseParser } from "../../../sdk/src/sse";
import { ApiError, authedFetch, type Schemas } from "../api/client";

/** One event of a job's stream: `JobEvent` of /openapi.json. */
export type JobEvent = Schemas["JobEvent"];

/** An SSE body's events as they arrive, parsed by the SDK's parser (the WHATWG rules; keep-alive comments skipped). */
async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<JobEvent> {
  const reader = body.getReader();
  const parser = new SseParser();
  for (;;) {
    const { value, done } = await reader.read();
    const messages = done ? parser.end() : parser.push(value);
    // The service that serves this dashboard sends only the events its document names.
    for (const message of messages) yield { id: Number(message.id) || 0, event: message.event, data: JSON.parse(message.data) } as JobEvent;
    if (done) return;
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

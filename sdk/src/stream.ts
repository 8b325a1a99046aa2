import { ConnectionError, DeepResearchError } from "./errors.js";
import { sleep } from "./retry.js";
import { SseParser, type SseMessage } from "./sse.js";
import { RESEARCH_EVENT_NAMES, type ResearchEvent } from "./types.js";

export interface StreamOptions {
  /** Resume after this event id (the `id` of the last event you saw); default: from the start. */
  lastEventId?: number;
  /** Stops the stream: the iteration rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Reconnections in a row without a new event before giving up (default 5). */
  maxReconnects?: number;
  /** The first reconnection delay, doubled at each failure in a row (default 250 ms). */
  reconnectDelayMs?: number;
  /** How long each connection waits for its response headers (ms; default the client's `timeout`). The events themselves may take minutes. */
  timeout?: number;
}

/** Opens the stream after `lastEventId` (0: from the start): its body, or a DeepResearchError for an error answer. */
export type ConnectEvents = (lastEventId: number, signal: AbortSignal | undefined) => Promise<ReadableStream<Uint8Array>>;

function typedEvent(message: SseMessage): ResearchEvent | null {
  // Events this version does not know are skipped, so a newer service never breaks an older client.
  if (!(RESEARCH_EVENT_NAMES as readonly string[]).includes(message.event)) return null;
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch {
    throw new DeepResearchError({
      status: 200,
      code: "invalid_response",
      message: `The ${message.event} event ${message.id} is not JSON: ${message.data.slice(0, 200)}`,
    });
  }
  return { id: Number(message.id ?? 0), event: message.event, data } as ResearchEvent;
}

/** A 4xx other than 429 says something asking again will not change (unknown job, refused key). */
function final(error: unknown): boolean {
  return error instanceof DeepResearchError && error.status >= 400 && error.status < 500 && error.status !== 429;
}

/**
 * A job's events, in order, until its `result` event (the last). When the connection drops or
 * ends early, it reconnects with `Last-Event-ID` set to the last event it yielded: the service
 * replays only what came after it, so no event is lost or repeated.
 */
export async function* followEvents(connect: ConnectEvents, options: StreamOptions = {}): AsyncGenerator<ResearchEvent, void, undefined> {
  const { signal } = options;
  const maxReconnects = options.maxReconnects ?? 5;
  const reconnectDelayMs = options.reconnectDelayMs ?? 250;
  let lastEventId = options.lastEventId ?? 0;
  let failures = 0;
  let lastProblem: unknown = null;
  for (;;) {
    signal?.throwIfAborted();
    if (failures > 0) {
      if (failures > maxReconnects) {
        if (lastProblem instanceof DeepResearchError) throw lastProblem;
        throw new ConnectionError({
          status: 0,
          code: "network_error",
          message: `The event stream dropped ${failures} times in a row without a new event (last event id ${lastEventId}).`,
          cause: lastProblem,
        });
      }
      await sleep(reconnectDelayMs * 2 ** (failures - 1), signal);
    }
    let body: ReadableStream<Uint8Array>;
    try {
      body = await connect(lastEventId, signal);
    } catch (error) {
      if (signal?.aborted || final(error)) throw error;
      lastProblem = error;
      failures++;
      continue;
    }
    const reader = body.getReader();
    const parser = new SseParser();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        for (const message of done ? parser.end() : parser.push(value)) {
          const event = typedEvent(message);
          if (!event || event.id <= lastEventId) continue;
          lastEventId = event.id;
          failures = 0;
          yield event;
          if (event.event === "result") return;
        }
        if (done) break;
      }
      lastProblem = null;
    } catch (error) {
      if (signal?.aborted || error instanceof DeepResearchError) throw error;
      // The connection dropped mid-stream: whatever frame it cut is discarded, and the next
      // connection resumes after the last whole event.
      lastProblem = error;
    } finally {
      // Releases the connection, also when the caller stops iterating early.
      reader.cancel().catch(() => {});
    }
    failures++;
  }
}

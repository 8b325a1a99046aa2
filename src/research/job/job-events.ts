import { sseComment, sseEvent, SSE_HEADERS } from "../../lib/sse";
import { SECOND } from "../../lib/time";
import type { JobEvent, JobEventData, JobEventName } from "../event-shapes";

const DEFAULT_KEEPALIVE_MS = 15 * SECOND;
type Subscriber = WritableStreamDefaultWriter<Uint8Array>;

/** What a follower inside the worker reads in one call: the next events, and whether the log is complete (nothing more will come). */
export interface JobEventBatch {
  events: JobEvent[];
  ended: boolean;
}

function concatBytes(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * A job's event stream: a durable log in the Durable Object's SQLite (increasing ids, so a
 * reconnect with Last-Event-ID replays what it missed), the live SSE subscribers, and the
 * followers inside the worker that read the events as objects (`eventsAfter`, `waitForEventsAfter`).
 * Events emitted in one turn go to each subscriber as one chunk: a burst (a wave's sources) costs
 * one write per subscriber, not one per event per subscriber, and wakes each follower once.
 */
export class JobEventStream {
  private subscribers = new Set<Subscriber>();
  /** Followers waiting in `waitForEventsAfter` for the next events: woken by the next flush. */
  private waiters = new Set<() => void>();
  private unsent: Uint8Array[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private keepAlive: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly sql: SqlStorage,
    private readonly keepAliveMs = DEFAULT_KEEPALIVE_MS,
  ) {
    sql.exec("CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, data TEXT NOT NULL)");
  }

  /** Anyone following live: an SSE subscriber or a follower waiting for events. */
  get hasSubscribers(): boolean {
    return this.subscribers.size > 0 || this.waiters.size > 0;
  }

  /**
   * Appends an event to the log and queues it for every subscriber (sent on the next turn). The
   * payload is typed by its event's schema (event-shapes.ts): the log holds only what the contract allows.
   */
  emit<Name extends JobEventName>(name: Name, data: JobEventData<Name>): void {
    const row = this.sql.exec<{ id: number }>("INSERT INTO events (name, data) VALUES (?, ?) RETURNING id", name, JSON.stringify(data)).one();
    if (!this.hasSubscribers) return;
    if (this.subscribers.size > 0) this.unsent.push(sseEvent(row.id, name, data));
    this.flushTimer ??= setTimeout(() => this.flush(), 0);
  }

  /** The logged events after `lastEventId`, as objects (what a follower inside the worker reads instead of SSE bytes). */
  eventsAfter(lastEventId: number): JobEvent[] {
    const rows = this.sql.exec<{ id: number; name: string; data: string }>("SELECT id, name, data FROM events WHERE id > ? ORDER BY id", lastEventId);
    // Written only by emit(), whose payloads the compiler held to their event's schema.
    return [...rows].map((row) => ({ id: row.id, event: row.name, data: JSON.parse(row.data) }) as JobEvent);
  }

  /** Resolves once an event after `lastEventId` is logged (at once if one is), or after `waitMs`: a follower's long poll. */
  async waitForEventsAfter(lastEventId: number, waitMs: number): Promise<void> {
    if (waitMs <= 0 || this.sql.exec("SELECT 1 FROM events WHERE id > ? LIMIT 1", lastEventId).toArray().length > 0) return;
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, waitMs);
      this.waiters.add(wake);
    });
  }

  /**
   * A new subscriber: everything after `lastEventId` at once, then live events until `close()`;
   * when `ended`, the replay is all there is and the stream ends.
   */
  subscribe(lastEventId: number, ended: boolean, signal?: AbortSignal): Response {
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const writer = writable.getWriter();
    // A subscriber that disconnects mid-replay makes these writes reject: drop it, never leave the rejection unhandled.
    const lost = () => this.drop(writer);
    // Unsent events go to the current subscribers only: this one gets them in its replay.
    this.flush();
    writer.write(sseComment("stream open")).catch(lost);
    for (const event of this.eventsAfter(lastEventId)) writer.write(sseEvent(event.id, event.event, event.data)).catch(lost);
    if (ended) {
      writer.close().catch(() => {});
    } else {
      this.subscribers.add(writer);
      this.ensureKeepAlive();
      signal?.addEventListener("abort", lost);
    }
    return new Response(readable, { headers: SSE_HEADERS });
  }

  /** Has an event of this name been logged? */
  has(name: JobEventName): boolean {
    return this.sql.exec("SELECT 1 FROM events WHERE name = ? LIMIT 1", name).toArray().length > 0;
  }

  /** Sends what is unsent, then ends every subscriber's stream (the job is terminal). */
  close(): void {
    this.flush();
    for (const writer of [...this.subscribers]) this.drop(writer);
  }

  /** Sends the unsent events to the subscribers and wakes the waiting followers. */
  private flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    for (const wake of [...this.waiters]) wake();
    if (this.unsent.length === 0) return;
    const chunk = concatBytes(this.unsent);
    this.unsent = [];
    for (const writer of this.subscribers) writer.write(chunk).catch(() => this.drop(writer));
  }

  private ensureKeepAlive(): void {
    if (this.keepAlive) return;
    this.keepAlive = setInterval(() => {
      const frame = sseComment("keep-alive");
      for (const writer of this.subscribers) writer.write(frame).catch(() => this.drop(writer));
    }, this.keepAliveMs);
  }

  private drop(writer: Subscriber): void {
    this.subscribers.delete(writer);
    writer.close().catch(() => {});
    if (this.subscribers.size === 0 && this.keepAlive) {
      clearInterval(this.keepAlive);
      this.keepAlive = null;
    }
  }
}

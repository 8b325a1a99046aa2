import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { isTerminal } from "../../db/schema/jobs";
import type { JobEvent } from "../../research/service";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * The `progress` and `total` of a job's notifications, so a client can show a percentage: the
 * pages read against the envelope's max_pages, plus one step for what follows the reading (the
 * brief, the critic, the typed output); a terminal status is the whole. A job that needs fewer
 * pages than its envelope allows jumps to the end when it finishes.
 *
 * MCP wants each progress larger than the last, and most notifications (a status, a stage, a
 * source) read no new page: each of those adds a thousandth, so the value always moves on and
 * stays within a page of the pages read. Counted in thousandths, so no float drift shows.
 */
export class PageProgress {
  readonly total: number;
  private thousandths = -1;
  private pages = 0;

  constructor(private readonly maxPages: number) {
    this.total = maxPages + 1;
  }

  /** The value of the notification that reports `event` (none: the notice that the job was accepted). */
  next(event?: JobEvent): number {
    if (event?.event === "progress") this.pages = Math.max(this.pages, Math.min(event.data.pages, this.maxPages));
    const finished = event?.event === "status" && isTerminal(event.data.status);
    this.thousandths = Math.max((finished ? this.total : this.pages) * 1000, this.thousandths + 1);
    return this.thousandths / 1000;
  }
}

/** Sends notifications/progress when the client asked for them (a progressToken); a client gone away is ignored. */
export function progressReporter(extra: Extra, meter: PageProgress) {
  const token = extra._meta?.progressToken;
  return async (message: string, event?: JobEvent) => {
    if (token === undefined) return;
    const progress = meter.next(event);
    try {
      await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress, total: meter.total, message } });
    } catch {
      // The response stream is gone; the request's abort signal handles what follows.
    }
  };
}

import { fetchWithTimeout, USER_AGENT } from "../http";
import type { Page, PageReader } from "../types";
import { extractHtml } from "./html";
import { parseRobots, robotsAllows, RobotsCache, type RobotsRules } from "./robots";
import { fetchableUrl } from "./fetchable-url";

export interface WebReaderOptions {
  timeoutMs?: number;
  /** Bytes of body read at most; the rest is not downloaded. */
  maxBytes?: number;
  allowLoopback?: boolean;
  userAgent?: string;
  /** Where robots.txt rules are kept (default: shared by the isolate's readers). */
  robots?: RobotsCache;
}

const sharedRobots = new RobotsCache();

/** Text kept per page: enough for any article, bounded so one page cannot flood the evidence. */
const MAX_TEXT_CHARS = 200_000;

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (total < maxBytes) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    total += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
  const bytes = new Uint8Array(Math.min(total, maxBytes));
  let offset = 0;
  for (const chunk of chunks) {
    const slice = chunk.subarray(0, Math.max(0, bytes.length - offset));
    bytes.set(slice, offset);
    offset += slice.length;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Fetches pages from the web: our own User-Agent, a timeout, a size cap, robots.txt
 * disallow rules honoured (see RobotsCache), HTML reduced to its main
 * text, plain text and markdown passed through, anything else skipped.
 */
export class WebReader implements PageReader {
  private readonly robots: RobotsCache;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly userAgent: string;

  constructor(private readonly options: WebReaderOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxBytes = options.maxBytes ?? 2_000_000;
    this.userAgent = options.userAgent ?? USER_AGENT;
    this.robots = options.robots ?? sharedRobots;
  }

  async read(url: string, signal?: AbortSignal): Promise<Page | null> {
    const target = fetchableUrl(url, this.options.allowLoopback ?? false);
    if (!target) return null;
    if (!(await this.allowedByRobots(target))) return null;
    let response: Response;
    try {
      response = await fetchWithTimeout(target.toString(), {
        timeoutMs: this.timeoutMs,
        signal,
        redirect: "follow",
        headers: { "User-Agent": this.userAgent, Accept: "text/html,application/xhtml+xml,text/plain,text/markdown;q=0.9,*/*;q=0.1" },
      });
    } catch {
      return null;
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return null;
    }
    const type = (response.headers.get("Content-Type") ?? "").toLowerCase();
    const body = await readCapped(response, this.maxBytes);
    if (type.includes("html") || (!type && /^\s*<(!doctype|html)/i.test(body))) {
      const page = await extractHtml(body);
      return { url, title: page.title || target.hostname + target.pathname, text: page.text.slice(0, MAX_TEXT_CHARS), cached: false };
    }
    if (type.startsWith("text/plain") || type.includes("markdown") || type === "") {
      const heading = /^#\s+(.+)$/m.exec(body)?.[1]?.trim();
      const name = decodeURIComponent(target.pathname.split("/").filter(Boolean).pop() ?? target.hostname);
      return { url, title: heading ?? name, text: body.slice(0, MAX_TEXT_CHARS), cached: false };
    }
    return null;
  }

  /** The rules are shared, so their fetch does not follow one read's abort signal (it has its own timeout). */
  private async allowedByRobots(target: URL): Promise<boolean> {
    const rules = await this.robots.rules(target.origin, () => this.fetchRobots(target.origin));
    return robotsAllows(rules, target.pathname + target.search);
  }

  private async fetchRobots(origin: string): Promise<{ rules: RobotsRules; answered: boolean }> {
    const everything = { allow: [], disallow: [] };
    try {
      const response = await fetchWithTimeout(`${origin}/robots.txt`, { timeoutMs: Math.min(this.timeoutMs, 5000), headers: { "User-Agent": this.userAgent } });
      // No robots.txt (4xx) allows everything; a server error is treated the same for now, as most
      // crawlers do after a retry, and asked again sooner.
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        return { rules: everything, answered: response.status < 500 };
      }
      return { rules: parseRobots(await readCapped(response, 500_000), this.userAgent.split("/")[0]!), answered: true };
    } catch {
      return { rules: everything, answered: false };
    }
  }
}

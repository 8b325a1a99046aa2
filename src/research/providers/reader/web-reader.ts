import { fetchWithTimeout, USER_AGENT } from "../http";
import type { Page, PageReader } from "../types";
import { extractHtml } from "./html";
import { parseRobots, robotsAllows, type RobotsRules } from "./robots";
import { fetchableUrl } from "./fetchable-url";

export interface WebReaderOptions {
  timeoutMs?: number;
  /** Bytes of body read at most; the rest is not downloaded. */
  maxBytes?: number;
  allowLoopback?: boolean;
  userAgent?: string;
}

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
 * disallow rules honoured (one robots.txt fetch per host per reader), HTML reduced to its main
 * text, plain text and markdown passed through, anything else skipped.
 */
export class WebReader implements PageReader {
  private readonly robots = new Map<string, Promise<RobotsRules>>();
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly userAgent: string;

  constructor(private readonly options: WebReaderOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxBytes = options.maxBytes ?? 2_000_000;
    this.userAgent = options.userAgent ?? USER_AGENT;
  }

  async read(url: string, signal?: AbortSignal): Promise<Page | null> {
    const target = fetchableUrl(url, this.options.allowLoopback ?? false);
    if (!target) return null;
    if (!(await this.allowedByRobots(target, signal))) return null;
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

  private allowedByRobots(target: URL, signal?: AbortSignal): Promise<boolean> {
    let rules = this.robots.get(target.origin);
    if (!rules) {
      rules = this.fetchRobots(target.origin, signal);
      this.robots.set(target.origin, rules);
    }
    return rules.then((loaded) => robotsAllows(loaded, target.pathname + target.search));
  }

  private async fetchRobots(origin: string, signal?: AbortSignal): Promise<RobotsRules> {
    try {
      const response = await fetchWithTimeout(`${origin}/robots.txt`, { timeoutMs: Math.min(this.timeoutMs, 5000), signal, headers: { "User-Agent": this.userAgent } });
      // No robots.txt (4xx) allows everything; a server error is treated the same, as most crawlers do after a retry.
      if (!response.ok) return { allow: [], disallow: [] };
      return parseRobots(await readCapped(response, 500_000), this.userAgent.split("/")[0]!);
    } catch {
      return { allow: [], disallow: [] };
    }
  }
}

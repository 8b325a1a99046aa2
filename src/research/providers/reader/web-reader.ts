import { destinationProblem, type NameResolver } from "../../../lib/host-resolution";
import { fetchWithTimeout, USER_AGENT } from "../http";
import type { Page, PageReader } from "../types";
import { bodyKind, MAX_PDF_BYTES, pageFromBody, sniffedKind } from "./page-body";
import { parseRobots, robotsAllows, RobotsCache, type RobotsRules } from "./robots";
import { fetchableUrl } from "./fetchable-url";

export interface WebReaderOptions {
  timeoutMs?: number;
  /** Bytes of body read at most; the rest is not downloaded. */
  maxBytes?: number;
  allowLoopback?: boolean;
  /**
   * Resolves host names before anything is sent to them (production): a name with an address
   * `lib/address-safety` refuses is not read. Unset: names are judged as written.
   */
  resolver?: NameResolver | null;
  userAgent?: string;
  /** Where robots.txt rules are kept (default: shared by the isolate's readers). */
  robots?: RobotsCache;
}

const sharedRobots = new RobotsCache();

/** Redirects followed at most per read (each hop checked like the first URL); one more and the read gives up. */
export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** The body's first `maxBytes` bytes at most; the rest is not downloaded. */
async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array();
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
  return bytes;
}

/**
 * Fetches pages from the web: our own User-Agent, a timeout, a size cap, robots.txt
 * disallow rules honoured (see RobotsCache), the body made a page by ./page-body.ts (HTML to
 * its main text in its declared charset, plain text and markdown as they are, a PDF's text
 * within the PDF bounds), anything else skipped. Redirects are followed
 * by hand, at most MAX_REDIRECTS of them, each target checked as the first URL was (its form,
 * its host and, with a resolver, the addresses its name resolves to, then its robots.txt)
 * before anything is sent to it.
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
    const first = fetchableUrl(url, this.options.allowLoopback ?? false);
    if (!first) return null;
    const fetched = await this.fetchChecked(first, {
      signal,
      headers: { "User-Agent": this.userAgent, Accept: "text/html,application/xhtml+xml,text/plain,text/markdown,application/pdf;q=0.9,*/*;q=0.1" },
      allowed: (hop) => this.allowedByRobots(hop),
    });
    if (!fetched) return null;
    const { response, url: target } = fetched;
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return null;
    }
    const type = response.headers.get("Content-Type") ?? "";
    const byHeaders = bodyKind(type, target);
    if (byHeaders === null) {
      await response.body?.cancel().catch(() => undefined);
      return null;
    }
    // A PDF cut short cannot be parsed: it (or what may be one) is read up to its own, larger cap.
    const bytes = await readCapped(response, byHeaders === "html" || byHeaders === "text" ? this.maxBytes : MAX_PDF_BYTES);
    const kind = byHeaders === "sniff" ? sniffedKind(type, bytes) : byHeaders;
    if (kind === null) return null;
    return pageFromBody(kind, kind === "pdf" ? bytes : bytes.subarray(0, this.maxBytes), type, url, target);
  }

  /** May a request be sent to this (already well-formed) URL's host: loopback only when allowed, and what its name resolves to. */
  private async reachable(target: URL): Promise<boolean> {
    const policy = { allowLoopback: this.options.allowLoopback ?? false, resolver: this.options.resolver ?? null };
    return (await destinationProblem(target.hostname, policy)) === null;
  }

  /**
   * GETs `start`, following redirects by hand: every URL of the chain is checked (form, host,
   * resolved addresses, then `allowed`) before it is fetched; a chain longer than MAX_REDIRECTS,
   * a refused hop or a failed fetch is null. The answer is the first response that is no redirect.
   */
  private async fetchChecked(
    start: URL,
    init: { signal?: AbortSignal; headers: Record<string, string>; timeoutMs?: number; allowed?: (url: URL) => Promise<boolean> },
  ): Promise<{ response: Response; url: URL } | null> {
    let current = start;
    for (let hop = 0; ; hop++) {
      if (!(await this.reachable(current))) return null;
      if (init.allowed && !(await init.allowed(current))) return null;
      let response: Response;
      try {
        response = await fetchWithTimeout(current.toString(), {
          timeoutMs: init.timeoutMs ?? this.timeoutMs,
          signal: init.signal,
          redirect: "manual",
          headers: init.headers,
        });
      } catch {
        return null;
      }
      if (!REDIRECT_STATUSES.has(response.status)) return { response, url: current };
      await response.body?.cancel().catch(() => undefined);
      const location = response.headers.get("Location");
      if (!location || hop >= MAX_REDIRECTS) return null;
      let next: URL | null;
      try {
        next = fetchableUrl(new URL(location, current).toString(), this.options.allowLoopback ?? false);
      } catch {
        return null;
      }
      if (!next) return null;
      current = next;
    }
  }

  /** The rules are shared, so their fetch does not follow one read's abort signal (it has its own timeout). */
  private async allowedByRobots(target: URL): Promise<boolean> {
    const rules = await this.robots.rules(target.origin, () => this.fetchRobots(target.origin));
    return robotsAllows(rules, target.pathname + target.search);
  }

  private async fetchRobots(origin: string): Promise<{ rules: RobotsRules; answered: boolean }> {
    const everything = { allow: [], disallow: [] };
    // robots.txt may redirect too (to another host's): each hop is checked like a page's.
    const fetched = await this.fetchChecked(new URL(`${origin}/robots.txt`), {
      timeoutMs: Math.min(this.timeoutMs, 5000),
      headers: { "User-Agent": this.userAgent },
    });
    if (!fetched) return { rules: everything, answered: false };
    const { response } = fetched;
    try {
      // No robots.txt (4xx) allows everything; a server error is treated the same for now, as most
      // crawlers do after a retry, and asked again sooner.
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        return { rules: everything, answered: response.status < 500 };
      }
      // robots.txt is UTF-8 (RFC 9309 section 2.3).
      return { rules: parseRobots(new TextDecoder().decode(await readCapped(response, 500_000)), this.userAgent.split("/")[0]!), answered: true };
    } catch {
      return { rules: everything, answered: false };
    }
  }
}

import type { Page, PageReader } from "../types";

/** A page read is shared across jobs for this long. */
export const PAGE_CACHE_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The shared page-read cache in D1: the same URL is fetched at most once per 24 hours across
 * all jobs. Failed reads are cached too, so a dead page does not cost a fetch per job.
 */
export class CachedReader implements PageReader {
  constructor(
    private readonly db: D1Database,
    private readonly inner: PageReader,
    private readonly now: () => number = Date.now,
    /** When given, the cache write runs in the background: the reader answers as soon as the page is read. */
    private readonly defer?: (work: Promise<unknown>) => void,
  ) {}

  async read(url: string, signal?: AbortSignal): Promise<Page | null> {
    const freshAfter = new Date(this.now() - PAGE_CACHE_TTL_MS).toISOString();
    const hit = await this.db
      .prepare("SELECT status, title, text FROM page_cache WHERE url = ? AND fetched_at > ?")
      .bind(url, freshAfter)
      .first<{ status: string; title: string; text: string }>();
    if (hit) return hit.status === "ok" ? { url, title: hit.title, text: hit.text, cached: true } : null;
    const page = await this.inner.read(url, signal);
    if (signal?.aborted) return page;
    const write = this.db
      .prepare(
        "INSERT INTO page_cache (url, status, title, text, content_type, error, fetched_at) VALUES (?, ?, ?, ?, NULL, ?, ?) " +
          "ON CONFLICT(url) DO UPDATE SET status = excluded.status, title = excluded.title, text = excluded.text, error = excluded.error, fetched_at = excluded.fetched_at",
      )
      .bind(url, page ? "ok" : "error", page?.title ?? "", page?.text ?? "", page ? null : "unreadable", new Date(this.now()).toISOString())
      .run();
    if (this.defer) this.defer(write.catch((error: unknown) => console.error(`page cache write for ${url} failed`, error)));
    else await write;
    return page;
  }
}

/**
 * Corpus documents are read from D1; everything else goes to the web reader. `inCorpus` says which
 * urls may be corpus documents (with a web search provider only `corpus://` ones are), so a web
 * page costs no corpus lookup.
 */
export class CompositeReader implements PageReader {
  constructor(
    private readonly corpus: PageReader,
    private readonly web: PageReader,
    private readonly inCorpus: (url: string) => boolean = () => true,
  ) {}

  async read(url: string, signal?: AbortSignal): Promise<Page | null> {
    return (this.inCorpus(url) ? await this.corpus.read(url, signal) : null) ?? this.web.read(url, signal);
  }
}

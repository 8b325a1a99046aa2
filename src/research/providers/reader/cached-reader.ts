import type { Page, PageReader } from "../types";

/** A page read is shared across jobs for this long. */
const PAGE_CACHE_TTL_MS = 24 * 60 * 60 * 1000;

type CacheRow = { url: string; status: string; title: string; text: string; published_at: string | null; author: string | null };

/** Urls looked up in one query at most (D1 binds up to 100 parameters; one is the freshness bound). */
const LOOKUP_CHUNK = 90;

/** Cache writes sent to D1 in one batch at most (pages can be long; D1 caps a batch's size). */
const WRITE_BATCH = 25;

/**
 * The shared page-read cache in D1: the same URL is fetched at most once per 24 hours across
 * all jobs, kept with its date and author. Failed reads are cached too, so a dead page does not cost a fetch per job. The
 * lookups of the reads started together (a queue batch's) go to D1 as one query, not one each;
 * with `defer`, their writes go as one batch once the last of those reads is in (one transaction,
 * not one per page, run after the answers are on their way).
 */
export class CachedReader implements PageReader {
  private pending: { url: string; resolve: (row: CacheRow | null) => void; reject: (error: unknown) => void }[] = [];
  /** Fetches under way, and the cache writes of those already done (sent when none is left). */
  private fetching = 0;
  private unwritten: { url: string; write: D1PreparedStatement }[] = [];

  constructor(
    private readonly db: D1Database,
    private readonly inner: PageReader,
    private readonly now: () => number = Date.now,
    /** When given, the cache write runs in the background: the reader answers as soon as the page is read. */
    private readonly defer?: (work: Promise<unknown>) => void,
  ) {}

  async read(url: string, signal?: AbortSignal): Promise<Page | null> {
    const hit = await this.lookup(url);
    if (hit) return hit.status === "ok" ? { url, title: hit.title, text: hit.text, ...metadataOf(hit), cached: true } : null;
    this.fetching += 1;
    try {
      const page = await this.inner.read(url, signal);
      if (signal?.aborted) return page;
      const write = this.db
        .prepare(
          "INSERT INTO page_cache (url, status, title, text, published_at, author, content_type, error, fetched_at) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?) " +
            "ON CONFLICT(url) DO UPDATE SET status = excluded.status, title = excluded.title, text = excluded.text, published_at = excluded.published_at, " +
            "author = excluded.author, error = excluded.error, fetched_at = excluded.fetched_at",
        )
        .bind(
          url,
          page ? "ok" : "error",
          page?.title ?? "",
          page?.text ?? "",
          page?.published_at ?? null,
          page?.author ?? null,
          page ? null : "unreadable",
          new Date(this.now()).toISOString(),
        );
      if (this.defer) this.unwritten.push({ url, write });
      else await write.run();
      return page;
    } finally {
      this.fetching -= 1;
      if (this.fetching === 0) this.writeBehind();
    }
  }

  /** The writes of the reads that are done, in batches, in the background. */
  private writeBehind(): void {
    const writes = this.unwritten.splice(0);
    for (let start = 0; start < writes.length; start += WRITE_BATCH) {
      const chunk = writes.slice(start, start + WRITE_BATCH);
      this.defer?.(
        this.db
          .batch(chunk.map((entry) => entry.write))
          .catch((error: unknown) => console.error(`page cache write for ${chunk.map((entry) => entry.url).join(", ")} failed`, error)),
      );
    }
  }

  /** The fresh cache row of `url`, looked up with every other read started in the same turn. */
  private lookup(url: string): Promise<CacheRow | null> {
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) queueMicrotask(() => void this.flush());
      this.pending.push({ url, resolve, reject });
    });
  }

  private async flush(): Promise<void> {
    const waiting = this.pending;
    this.pending = [];
    const freshAfter = new Date(this.now() - PAGE_CACHE_TTL_MS).toISOString();
    for (let start = 0; start < waiting.length; start += LOOKUP_CHUNK) {
      const chunk = waiting.slice(start, start + LOOKUP_CHUNK);
      const urls = [...new Set(chunk.map((entry) => entry.url))];
      try {
        const { results } = await this.db
          .prepare(`SELECT url, status, title, text, published_at, author FROM page_cache WHERE fetched_at > ? AND url IN (${urls.map(() => "?").join(", ")})`)
          .bind(freshAfter, ...urls)
          .all<CacheRow>();
        const byUrl = new Map(results.map((row) => [row.url, row]));
        for (const entry of chunk) entry.resolve(byUrl.get(entry.url) ?? null);
      } catch (error) {
        for (const entry of chunk) entry.reject(error);
      }
    }
  }
}

/** The page's date and author as a cache row keeps them (null columns are left out). */
function metadataOf(row: CacheRow): Pick<Page, "published_at" | "author"> {
  return { ...(row.published_at ? { published_at: row.published_at } : {}), ...(row.author ? { author: row.author } : {}) };
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

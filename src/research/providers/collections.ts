import { plainText } from "../../lib/plain-text";
import { toFtsQuery } from "./search/corpus";
import { domainOf } from "./domains";
import type { Page, PageReader, SearchHit, SearchProvider, SearchQuery, SearchScope } from "./types";

/** bm25() column weights, as for the corpus: the title (document title and section heading) counts ten times the text. */
const TITLE_WEIGHT = 10;
/** Chunks ranked per search: several may come from one document, which is returned once. */
const CHUNKS_PER_HIT = 4;

/** The url a document is cited by: its own, or a stable one naming its collection and itself. */
function collectionDocumentUrl(collectionId: string, documentId: string, url: string | null): string {
  return url ?? `collection://${collectionId}/${documentId}`;
}

const COLLECTION_URL = /^collection:\/\/([0-9a-f-]{36})\/([0-9a-f-]{36})$/;

interface ChunkRow {
  document_id: string;
  collection_id: string;
  url: string | null;
  title: string;
  snippet: string;
  rank: number;
}

/**
 * Search over a job's collections (the caller's own documents): chunks ranked by bm25 inside FTS5,
 * limited to the scope's collections *and* its owner, each document returned once with its best
 * chunk as the snippet. The domain of a hit is its url's host, or the collection's name.
 */
export class CollectionSearch implements SearchProvider {
  readonly name = "collections";

  constructor(
    private readonly db: D1Database,
    private readonly scope: SearchScope,
  ) {}

  async search(query: SearchQuery): Promise<SearchHit[]> {
    const match = toFtsQuery(query.query);
    const ids = this.scope.collections.map((collection) => collection.id);
    if (!match || ids.length === 0) return [];
    const limit = Math.max(1, Math.min(query.limit, 50));
    const { results } = await this.db
      .prepare(
        `WITH top AS (` +
          `SELECT collection_fts.rowid AS id, bm25(collection_fts, ${TITLE_WEIGHT}, 1) AS rank FROM collection_fts ` +
          `JOIN collection_chunks c ON c.id = collection_fts.rowid JOIN collection_documents d ON d.id = c.document_id ` +
          `WHERE collection_fts MATCH ?1 AND d.user_id = ?2 AND c.collection_id IN (${ids.map((_, i) => `?${i + 4}`).join(", ")}) ` +
          `ORDER BY rank LIMIT ?3) ` +
          `SELECT c.document_id, c.collection_id, d.url, d.title, snippet(collection_fts, 1, '', '', ' … ', 40) AS snippet, top.rank AS rank ` +
          `FROM top JOIN collection_fts ON collection_fts.rowid = top.id JOIN collection_chunks c ON c.id = top.id JOIN collection_documents d ON d.id = c.document_id ` +
          `WHERE collection_fts MATCH ?1 ORDER BY top.rank`,
      )
      .bind(match, this.scope.userId, limit * CHUNKS_PER_HIT, ...ids)
      .all<ChunkRow>();
    const names = new Map(this.scope.collections.map((collection) => [collection.id, collection.name]));
    const hits = new Map<string, SearchHit>();
    for (const row of results) {
      if (hits.has(row.document_id) || hits.size >= limit) continue;
      const url = collectionDocumentUrl(row.collection_id, row.document_id, row.url);
      hits.set(row.document_id, {
        url,
        title: plainText(row.title),
        snippet: row.snippet,
        domain: (row.url && domainOf(row.url)) || names.get(row.collection_id) || "collection",
        score: -row.rank,
      });
    }
    return [...hits.values()];
  }
}

/** Reads the documents of a job's collections from D1 (by their collection:// url or their own url), never anything else. */
export class CollectionReader implements PageReader {
  constructor(
    private readonly db: D1Database,
    private readonly scope: SearchScope,
  ) {}

  async read(url: string): Promise<Page | null> {
    const ids = this.scope.collections.map((collection) => collection.id);
    if (ids.length === 0) return null;
    const inScope = `user_id = ?1 AND collection_id IN (${ids.map((_, i) => `?${i + 3}`).join(", ")})`;
    const own = COLLECTION_URL.exec(url);
    const row = await this.db
      .prepare(`SELECT title, text, metadata_json FROM collection_documents WHERE ${own ? "id = ?2" : "url = ?2"} AND ${inScope} LIMIT 1`)
      .bind(this.scope.userId, own ? own[2]! : url, ...ids)
      .first<{ title: string; text: string; metadata_json: string | null }>();
    // A document deleted while the job runs is simply not there any more.
    if (!row) return null;
    return { url, title: plainText(row.title), text: row.text, ...documentMetadata(row.metadata_json), cached: false }; // titles stored before they were made plain
  }
}

/**
 * A document's date and author, when the metadata it was given names them as a source does
 * (`published_at`: an ISO 8601 date or time; `author`: a name or a list of names); anything else
 * in it is the caller's own and not read.
 */
export function documentMetadata(json: string | null): Pick<Page, "published_at" | "author"> {
  let metadata: unknown;
  try {
    metadata = json ? JSON.parse(json) : null;
  } catch {
    return {};
  }
  if (!metadata || typeof metadata !== "object") return {};
  const { published_at: date, author } = metadata as Record<string, unknown>;
  const out: Pick<Page, "published_at" | "author"> = {};
  if (typeof date === "string" && /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(date.trim())) {
    const text = date.trim();
    const time = Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text);
    if (Number.isFinite(time)) out.published_at = text.length === 10 ? text : new Date(time).toISOString().replace(/\.000Z$/, "Z");
  }
  const names = (Array.isArray(author) ? author : [author]).filter((name): name is string => typeof name === "string" && name.trim() !== "");
  if (names.length > 0) out.author = plainText(names.map((name) => name.trim()).join(", ")).slice(0, 200);
  return out;
}

/** Two search spaces at once (collections and the web): their hits interleaved, best of each first, each url once. */
export class MergedSearch implements SearchProvider {
  readonly name: string;

  constructor(private readonly providers: SearchProvider[]) {
    this.name = providers.map((provider) => provider.name).join("+");
  }

  async search(query: SearchQuery): Promise<SearchHit[]> {
    const lists = await Promise.all(this.providers.map((provider) => provider.search(query)));
    const merged: SearchHit[] = [];
    const seen = new Set<string>();
    for (let rank = 0; merged.length < query.limit && lists.some((list) => rank < list.length); rank++) {
      for (const list of lists) {
        const hit = list[rank];
        if (hit && !seen.has(hit.url) && merged.length < query.limit) {
          seen.add(hit.url);
          merged.push(hit);
        }
      }
    }
    return merged;
  }
}

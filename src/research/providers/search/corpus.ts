import { plainText } from "../../../lib/plain-text";
import { fold, olderSpellings, STOPWORDS, words } from "../../../lib/words";
import { normalizeDomain } from "../domains";
import type { SearchHit, SearchProvider, SearchQuery } from "../types";

/** bm25() column weights: a match in the title counts ten times one in the body. */
const TITLE_WEIGHT = 10;
const BODY_WEIGHT = 1;

/**
 * Turns free text into an FTS5 query: every content word OR-ed (BM25 does the weighting),
 * quoted phrases kept as phrases. Each token is double-quoted so FTS5 syntax in user text
 * (AND, NEAR, *, :) is never interpreted.
 */
export function toFtsQuery(text: string): string {
  const parts: string[] = [];
  for (const match of text.matchAll(/"([^"]+)"/g)) {
    const phrase = words(match[1]!).join(" ");
    if (phrase) parts.push(`"${phrase}"`);
  }
  const unquoted = text.replace(/"[^"]*"/g, " ");
  for (const word of words(fold(unquoted))) {
    if (STOPWORDS.has(word) || (word.length < 2 && !/\d/.test(word))) continue;
    parts.push(`"${word}"`);
    // The index holds pages as written: "Viet-Nam" is found by the words it is written in.
    for (const older of olderSpellings(word)) parts.push(`"${older}"`);
  }
  return [...new Set(parts)].join(" OR ");
}

interface Row {
  url: string;
  title: string;
  domain: string;
  snippet: string;
  rank: number;
}

/** The local corpus in D1, searched with its FTS5 index exactly like a web index. */
export class CorpusSearch implements SearchProvider {
  readonly name = "corpus";

  constructor(private readonly db: D1Database) {}

  async search(query: SearchQuery): Promise<SearchHit[]> {
    const match = toFtsQuery(query.query);
    if (!match) return [];
    const conditions: string[] = ["corpus_fts MATCH ?"];
    const params: unknown[] = [match];
    const include = (query.includeDomains ?? []).map(normalizeDomain).filter(Boolean);
    const exclude = (query.excludeDomains ?? []).map(normalizeDomain).filter(Boolean);
    if (include.length > 0) {
      conditions.push(`(${include.map(() => "(d.domain = ? OR d.domain LIKE ?)").join(" OR ")})`);
      for (const domain of include) params.push(domain, `%.${domain}`);
    }
    for (const domain of exclude) {
      conditions.push("NOT (d.domain = ? OR d.domain LIKE ?)");
      params.push(domain, `%.${domain}`);
    }
    params.push(Math.max(1, Math.min(query.limit, 50)));
    const { results } = await this.db
      .prepare(rankedSearchSql(conditions))
      .bind(...params)
      .all<Row>();
    // bm25() is lower-is-better; flip it so every provider's score reads "higher is better".
    return results.map((row) => ({ url: row.url, title: plainText(row.title), domain: row.domain, snippet: row.snippet, score: -row.rank }));
  }
}

/**
 * Two steps, so the costly part runs only for what is returned: the best `limit` documents by
 * bm25 (title weighted), ranked inside FTS5; then a snippet for each of those alone. (Computing
 * the snippet in the ranking query made SQLite build one for every matching document before
 * sorting, and an OR of a question's words matches most of the corpus.)
 */
export function rankedSearchSql(conditions: string[]): string {
  return (
    `WITH top AS (` +
    `SELECT corpus_fts.rowid AS id, bm25(corpus_fts, ${TITLE_WEIGHT}, ${BODY_WEIGHT}) AS rank ` +
    `FROM corpus_fts JOIN corpus_documents d ON d.id = corpus_fts.rowid ` +
    `WHERE ${conditions.join(" AND ")} ORDER BY rank LIMIT ?) ` +
    `SELECT d.url, d.title, d.domain, snippet(corpus_fts, 1, '', '', ' … ', 40) AS snippet, top.rank AS rank ` +
    `FROM top JOIN corpus_fts ON corpus_fts.rowid = top.id JOIN corpus_documents d ON d.id = top.id ` +
    `WHERE corpus_fts MATCH ?1 ORDER BY top.rank`
  );
}

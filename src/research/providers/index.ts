import { destinationPolicy } from "../../lib/host-resolution";
import { CorpusReader } from "./corpus-store";
import { createChatModel, createSearchProvider, type ProviderConfig } from "./factories";
import { CachedReader, CompositeReader } from "./reader/cached-reader";
import { WebReader } from "./reader/web-reader";
import { CollectionReader, CollectionSearch, MergedSearch } from "./collections";
import type { Providers, SearchScope } from "./types";

export { createChatModel, createSearchProvider, type ProviderConfig, ProviderConfigError } from "./factories";
export type { Providers } from "./types";

/**
 * The providers a job uses, from configuration. Corpus documents are always read from D1 (with
 * the corpus as search provider, nothing else is read); web pages go through the shared 24-hour
 * page cache (written in the background when `defer` is given, so a read answers as soon as the
 * page is fetched). Loopback URLs are fetchable only in development; elsewhere host names are
 * resolved (DNS over HTTPS) and a name with an internal address is not read. A job that names collections
 * (`scope`) searches those instead, plus the default search space when its scope says `web`.
 */
export function createProviders(
  config: ProviderConfig,
  db: D1Database,
  options: { defer?: (work: Promise<unknown>) => void; scope?: SearchScope } = {},
): Providers {
  const base = defaultProviders(config, db, options.defer);
  const scope = options.scope;
  if (!scope || scope.collections.length === 0) return base;
  const own = new CollectionSearch(db, scope);
  const ownReader = new CollectionReader(db, scope);
  if (!scope.web) return { search: own, reader: ownReader, llm: base.llm };
  return { search: new MergedSearch([own, base.search]), reader: new CompositeReader(ownReader, base.reader), llm: base.llm };
}

function defaultProviders(config: ProviderConfig, db: D1Database, defer?: (work: Promise<unknown>) => void): Providers {
  const search = createSearchProvider(config, db);
  // The local corpus answers with its own documents: reading them never touches the network,
  // even when a stored url is an https one.
  if (search.name === "corpus") return { search, reader: new CorpusReader(db), llm: createChatModel(config) };
  // Development reads loopback URLs and judges names as written; anything else (production)
  // resolves every host name of a read, redirect hops included, and refuses internal addresses.
  const policy = destinationPolicy({ ENVIRONMENT: config.ENVIRONMENT ?? "production", DNS_OVER_HTTPS_URL: config.DNS_OVER_HTTPS_URL });
  const web = new WebReader({
    allowLoopback: policy.allowLoopback,
    resolver: policy.resolver,
    timeoutMs: config.READER_TIMEOUT_MS ? Number(config.READER_TIMEOUT_MS) : undefined,
  });
  return {
    search,
    // Web results are web pages: only a corpus:// url costs a corpus lookup.
    reader: new CompositeReader(new CorpusReader(db), new CachedReader(db, web, Date.now, defer), (url) => url.startsWith("corpus://")),
    llm: createChatModel(config),
  };
}

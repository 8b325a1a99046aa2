import { destinationPolicy } from "../../lib/host-resolution";
import { CorpusReader } from "./corpus-store";
import { AnthropicModel } from "./llm/anthropic";
import { OpenAiCompatibleModel } from "./llm/openai";
import type { Env, ProviderVariable } from "../../env";
import { WorkersAiModel } from "./llm/workers-ai";
import { CachedReader, CompositeReader } from "./reader/cached-reader";
import { WebReader } from "./reader/web-reader";
import { BraveSearch } from "./search/brave";
import { CorpusSearch } from "./search/corpus";
import { ExaSearch } from "./search/exa";
import { SearxngSearch } from "./search/searxng";
import { TavilySearch } from "./search/tavily";
import { CollectionReader, CollectionSearch, MergedSearch } from "./collections";
import type { ChatModel, Providers, SearchProvider, SearchScope } from "./types";

export type { Providers } from "./types";

/**
 * The variables (and the optional Workers AI binding) that choose and configure the providers:
 * wrangler vars and secrets, every key optional; the defaults work offline.
 */
export type ProviderConfig = Partial<Pick<Env, ProviderVariable>>;

export class ProviderConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProviderConfigError";
  }
}

function required(value: string | undefined, name: string, provider: string): string {
  if (!value) throw new ProviderConfigError(`${provider} needs ${name}`);
  return value;
}

export function createSearchProvider(config: ProviderConfig, db: D1Database): SearchProvider {
  const name = (config.SEARCH_PROVIDER ?? "corpus").toLowerCase();
  switch (name) {
    case "corpus":
      return new CorpusSearch(db);
    case "brave":
      return new BraveSearch(required(config.BRAVE_API_KEY, "BRAVE_API_KEY", "SEARCH_PROVIDER=brave"));
    case "tavily":
      return new TavilySearch(required(config.TAVILY_API_KEY, "TAVILY_API_KEY", "SEARCH_PROVIDER=tavily"));
    case "exa":
      return new ExaSearch(required(config.EXA_API_KEY, "EXA_API_KEY", "SEARCH_PROVIDER=exa"));
    case "searxng":
      return new SearxngSearch(required(config.SEARXNG_URL, "SEARXNG_URL", "SEARCH_PROVIDER=searxng"));
    default:
      throw new ProviderConfigError(`unknown SEARCH_PROVIDER "${name}" (corpus, brave, tavily, exa, searxng)`);
  }
}

export function createChatModel(config: ProviderConfig): ChatModel | null {
  const name = (config.LLM_PROVIDER ?? "extractive").toLowerCase();
  const options = { contextTokens: contextTokens(config.LLM_CONTEXT_TOKENS) };
  switch (name) {
    case "extractive":
    case "none":
      return null;
    case "openai":
      return new OpenAiCompatibleModel(config.OPENAI_BASE_URL ?? "https://api.openai.com/v1", config.LLM_MODEL ?? "gpt-4o-mini", config.OPENAI_API_KEY, options);
    case "anthropic":
      return new AnthropicModel(
        required(config.ANTHROPIC_API_KEY, "ANTHROPIC_API_KEY", "LLM_PROVIDER=anthropic"),
        config.LLM_MODEL ?? "claude-3-5-haiku-latest",
        config.ANTHROPIC_BASE_URL,
        options,
      );
    case "workers-ai":
      if (!config.AI) throw new ProviderConfigError('LLM_PROVIDER=workers-ai needs the AI binding ([ai] binding = "AI" in wrangler.toml)');
      return new WorkersAiModel(config.AI, config.LLM_MODEL ?? "@cf/meta/llama-3.1-8b-instruct", options);
    default:
      throw new ProviderConfigError(`unknown LLM_PROVIDER "${name}" (extractive, openai, anthropic, workers-ai)`);
  }
}

/** LLM_CONTEXT_TOKENS as a number (src/env.ts has validated it); unset or empty: undefined. */
function contextTokens(value: string | number | undefined): number | undefined {
  if (value === undefined || value === "") return undefined;
  const tokens = Number(value);
  return Number.isInteger(tokens) && tokens > 0 ? tokens : undefined;
}

/**
 * The providers a job uses, from configuration. Corpus documents are always read from D1 (with
 * the corpus as search provider, nothing else is read); web pages go through the shared 24-hour
 * page cache (written in the background when `defer` is given, so a read answers as soon as the
 * page is fetched). Loopback URLs are fetchable only in development; elsewhere host names are
 * resolved (DNS over HTTPS) and a name with an internal address is not read. A job that names collections
 * (`scope`) searches those instead, plus the default search space when its scope says `web`.
 */
export function createProviders(config: ProviderConfig, db: D1Database, options: { defer?: (work: Promise<unknown>) => void; scope?: SearchScope } = {}): Providers {
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

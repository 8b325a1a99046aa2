import {
  type Env,
  isProviderName,
  LLM_PROVIDER,
  type LlmProviderName,
  missingVariables,
  type ProviderChoice,
  providerNames,
  type ProviderVariable,
  SEARCH_PROVIDER,
  type SearchProviderName,
} from "../../env";
import { AnthropicModel } from "./llm/anthropic";
import { DEFAULT_MODELS } from "./llm/defaults";
import { OpenAiCompatibleModel } from "./llm/openai";
import { WorkersAiModel } from "./llm/workers-ai";
import { warnIfRetiring } from "./llm/retirements";
import { BraveSearch } from "./search/brave";
import { CorpusSearch } from "./search/corpus";
import { ExaSearch } from "./search/exa";
import { SearxngSearch } from "./search/searxng";
import { TavilySearch } from "./search/tavily";
import type { ChatModel, SearchProvider } from "./types";

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

/** What a provider's factory is given: each variable its table entry requires, set. */
type Required<Variables extends readonly ProviderVariable[]> = { [Variable in Variables[number]]: string };

/**
 * The provider `config` names under `choice.variable` (unset: the default; any case), and the
 * variables it requires. env.ts refuses the same names and missing variables at the first request;
 * this holds for a caller that builds providers from variables it never checked (the eval).
 */
function chosen<C extends ProviderChoice>(
  choice: C,
  config: ProviderConfig,
  aliases: Readonly<Record<string, string>> = {},
): { name: keyof C["requires"] & string; required: Record<string, string> } {
  const given = (config[choice.variable] as string | undefined)?.toLowerCase() ?? choice.default;
  const name = aliases[given] ?? given;
  if (!isProviderName(choice, name)) throw new ProviderConfigError(`unknown ${choice.variable} "${given}" (${providerNames(choice).join(", ")})`);
  const [missing] = missingVariables(choice, name, config);
  if (missing) throw new ProviderConfigError(`${choice.variable}=${name} needs ${missing}`);
  const required: Record<string, string> = {};
  for (const variable of choice.requires[name] ?? []) required[variable] = String(config[variable]);
  return { name, required };
}

type SearchFactories = { [Name in SearchProviderName]: (required: Required<(typeof SEARCH_PROVIDER.requires)[Name]>, db: D1Database) => SearchProvider };

/** A factory for every search provider the configuration accepts: the type makes it cover them all. */
const SEARCH_FACTORIES: SearchFactories = {
  corpus: (_, db) => new CorpusSearch(db),
  brave: ({ BRAVE_API_KEY }) => new BraveSearch(BRAVE_API_KEY),
  tavily: ({ TAVILY_API_KEY }) => new TavilySearch(TAVILY_API_KEY),
  exa: ({ EXA_API_KEY }) => new ExaSearch(EXA_API_KEY),
  searxng: ({ SEARXNG_URL }) => new SearxngSearch(SEARXNG_URL),
};

export function createSearchProvider(config: ProviderConfig, db: D1Database): SearchProvider {
  const { name, required } = chosen(SEARCH_PROVIDER, config);
  // `required` holds exactly this name's variables (chosen read them from its table entry).
  const create = SEARCH_FACTORIES[name] as (required: Record<string, string>, db: D1Database) => SearchProvider;
  return create(required, db);
}

type ChatOptions = { contextTokens: number | undefined; timeoutMs: number | undefined };
type LlmFactory<Name extends LlmProviderName> = (
  required: Required<(typeof LLM_PROVIDER.requires)[Name]>,
  config: ProviderConfig,
  options: ChatOptions,
) => ChatModel | null;

/** A factory for every model the configuration accepts; null is the offline extractive engine (no model). */
const LLM_FACTORIES: { [Name in LlmProviderName]: LlmFactory<Name> } = {
  extractive: () => null,
  openai: (_, config, options) =>
    new OpenAiCompatibleModel(config.OPENAI_BASE_URL ?? "https://api.openai.com/v1", config.LLM_MODEL ?? DEFAULT_MODELS.openai, config.OPENAI_API_KEY, options),
  anthropic: ({ ANTHROPIC_API_KEY }, config, options) =>
    new AnthropicModel(ANTHROPIC_API_KEY, config.LLM_MODEL ?? DEFAULT_MODELS.anthropic, config.ANTHROPIC_BASE_URL, options),
  "workers-ai": (_, config, options) => {
    if (!config.AI)
      throw new ProviderConfigError(
        'LLM_PROVIDER=workers-ai needs the AI binding (npm run deploy adds it; elsewhere [ai] binding = "AI" in the Wrangler config)',
      );
    return new WorkersAiModel(config.AI, config.LLM_MODEL ?? DEFAULT_MODELS["workers-ai"], options);
  },
};

/** "none", the offline engine's first name: still taken here, though the configuration check takes only "extractive". */
const LLM_ALIASES = { none: "extractive" };

export function createChatModel(config: ProviderConfig): ChatModel | null {
  const { name, required } = chosen(LLM_PROVIDER, config, LLM_ALIASES);
  const create = LLM_FACTORIES[name] as (required: Record<string, string>, config: ProviderConfig, options: ChatOptions) => ChatModel | null;
  const model = create(required, config, { contextTokens: contextTokens(config.LLM_CONTEXT_TOKENS), timeoutMs: timeoutMs(config.LLM_TIMEOUT_MS) });
  // A model on the retirement list is said once per isolate, not found out from failed calls.
  const id = config.LLM_MODEL ?? DEFAULT_MODELS[name as keyof typeof DEFAULT_MODELS];
  if (model && id) warnIfRetiring(name, id);
  return model;
}

/** LLM_TIMEOUT_MS as a number (src/env.ts has validated its bounds); unset or empty: undefined, the models' default (MODEL_TIMEOUT_MS). */
function timeoutMs(value: string | number | undefined): number | undefined {
  if (value === undefined || value === "") return undefined;
  const ms = Number(value);
  return Number.isInteger(ms) && ms > 0 ? ms : undefined;
}

/** LLM_CONTEXT_TOKENS as a number (src/env.ts has validated it); unset or empty: undefined. */
function contextTokens(value: string | number | undefined): number | undefined {
  if (value === undefined || value === "") return undefined;
  const tokens = Number(value);
  return Number.isInteger(tokens) && tokens > 0 ? tokens : undefined;
}

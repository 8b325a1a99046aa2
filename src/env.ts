import { z } from "zod";

/** The research providers' variables: which search and model, their keys, the optional Workers AI binding. */
interface ProviderVariables {
  SEARCH_PROVIDER?: string;
  BRAVE_API_KEY?: string;
  TAVILY_API_KEY?: string;
  EXA_API_KEY?: string;
  SEARXNG_URL?: string;
  LLM_PROVIDER?: string;
  LLM_MODEL?: string;
  /** The model's context window in tokens: stages size each call's evidence to it (a local model's is small). */
  LLM_CONTEXT_TOKENS?: string | number;
  /** How long one model call may take before it fails as retryable (default 90 s; a slow local or relayed model needs more). */
  LLM_TIMEOUT_MS?: string | number;
  OPENAI_BASE_URL?: string;
  OPENAI_API_KEY?: string;
  ANTHROPIC_API_KEY?: string;
  ANTHROPIC_BASE_URL?: string;
  /** The `[ai] binding = "AI"` that `npm run deploy` adds for LLM_PROVIDER=workers-ai (not in the repository's wrangler.toml): the part of it the Workers AI model uses. */
  AI?: { run(model: string, input: Record<string, unknown>): Promise<unknown> };
  READER_TIMEOUT_MS?: string | number;
  /** DNS over HTTPS (JSON API) that host names of page reads and webhooks are resolved with in production. */
  DNS_OVER_HTTPS_URL?: string;
}
export type ProviderVariable = keyof ProviderVariables | "ENVIRONMENT";

/**
 * The providers a deployment may choose, one table per variable that chooses: each name with the
 * variables it cannot work without. The one list of the names: the configuration check below
 * derives its enums, their messages and the required variables from it, and
 * research/providers/factories.ts gives every name a factory, typed to cover them all. Here in the
 * ground, beside the variables, because this check may import nothing of ours.
 */
export interface ProviderChoice {
  readonly variable: ProviderVariable;
  readonly default: string;
  readonly requires: Readonly<Record<string, readonly ProviderVariable[]>>;
}

export const SEARCH_PROVIDER = {
  variable: "SEARCH_PROVIDER",
  default: "corpus",
  requires: { corpus: [], brave: ["BRAVE_API_KEY"], tavily: ["TAVILY_API_KEY"], exa: ["EXA_API_KEY"], searxng: ["SEARXNG_URL"] },
} as const satisfies ProviderChoice;

export const LLM_PROVIDER = {
  variable: "LLM_PROVIDER",
  default: "extractive",
  // openai's key is optional (a local server takes none); workers-ai needs the AI binding, no
  // variable, and its factory says so when it is missing.
  requires: { extractive: [], openai: [], anthropic: ["ANTHROPIC_API_KEY"], "workers-ai": [] },
} as const satisfies ProviderChoice;

export type SearchProviderName = keyof typeof SEARCH_PROVIDER.requires;
export type LlmProviderName = keyof typeof LLM_PROVIDER.requires;
type NameOf<Choice extends ProviderChoice> = keyof Choice["requires"] & string;

/** The names of a choice in the table's order, as the tuple z.enum takes. */
export function providerNames<Choice extends ProviderChoice>(choice: Choice): [NameOf<Choice>, ...NameOf<Choice>[]] {
  return Object.keys(choice.requires) as [NameOf<Choice>, ...NameOf<Choice>[]];
}

/** Whether `name` is one of the choice's names (not merely a key every object has). */
export function isProviderName<Choice extends ProviderChoice>(choice: Choice, name: string): name is NameOf<Choice> {
  return Object.hasOwn(choice.requires, name);
}

/** The variables the provider `name` needs that `values` leaves unset or empty (none for an unknown name). */
export function missingVariables(choice: ProviderChoice, name: string, values: Readonly<Record<string, unknown>>): ProviderVariable[] {
  const requires = isProviderName(choice, name) ? (choice.requires[name] ?? []) : [];
  return requires.filter((variable) => !values[variable]);
}

/** "corpus, brave, tavily, exa or searxng": a choice's names as the check's message lists them. */
function oneOf(choice: ProviderChoice): string {
  const names = providerNames(choice);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : names[0];
}

/** Bindings from wrangler.toml, vars, and secrets (.dev.vars locally, `wrangler secret` when deployed). */
export interface Env extends ProviderVariables {
  DB: D1Database;
  // Untyped here, so this bottom layer names no class above it: research/job/job-object.ts and
  // rate-limit/rules.ts give the stubs their types, each in one place.
  RESEARCH_JOB: DurableObjectNamespace;
  RATE_LIMITER: DurableObjectNamespace;
  /** The research-tasks shards (research/tasks/task-queues.ts). */
  RESEARCH_TASKS: Queue;
  RESEARCH_TASKS_1: Queue;
  RESEARCH_TASKS_2: Queue;
  RESEARCH_TASKS_3: Queue;
  WEBHOOK_DELIVERIES: Queue;
  /** MCP's OAuth: the clients, grants and tokens of @cloudflare/workers-oauth-provider (services/oauth/). */
  OAUTH_KV: KVNamespace;

  ENVIRONMENT: string;
  ADMIN_EMAILS?: string;
  /** Where the dashboard lives; unset: this worker serves it, on the request's own origin. */
  DASHBOARD_URL?: string;
  /**
   * Without DASHBOARD_URL, the hosts (comma-separated, `host` or `host:port`) whose origin email
   * and payment links may be built on, besides loopback (services/link-origin.ts).
   */
  LINK_HOSTS?: string;
  RATE_LIMIT_SCALE?: string;
  /** Credits an account may spend on research before its email is verified (services/unverified-spending.ts). */
  UNVERIFIED_SPEND_LIMIT?: string;
  JWT_SECRET?: string;
  RESEND_API_KEY?: string;
  EMAIL_FROM?: string;
  /** Payment processor (Stripe). Price ids live in the variables the catalog names (STRIPE_PRICE_*). */
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  /** Event name of the billing meter that plan overage is reported to. */
  STRIPE_METER_EVENT_NAME?: string;
  /** "true" when the platform in front sets CF-Connecting-IP (default: only in production). */
  TRUST_CF_CONNECTING_IP?: string;
  /** Interval of SSE keep-alive comments (default 15000 ms). */
  SSE_KEEPALIVE_MS?: string;
  /**
   * Where a job's searches and reads run: `auto` (default) runs the local ones (corpus,
   * collections) in the job and sends web ones through the research-tasks queue; `queue` sends
   * every one through the queue (for measuring the two side by side, bench/run.ts).
   */
  TASK_FAN_OUT?: string;
}

const configSchema = z
  .object({
    ENVIRONMENT: z.enum(["development", "production"], {
      error: 'must be "development" or "production"',
    }),
    ADMIN_EMAILS: z
      .string()
      .default("")
      .transform((list) =>
        list
          .split(",")
          .map((email) => email.trim().toLowerCase())
          .filter(Boolean),
      ),
    DASHBOARD_URL: z
      .url({ error: "must be an absolute http(s) URL" })
      .transform((url) => url.replace(/\/+$/, ""))
      .optional(),
    LINK_HOSTS: z
      .string()
      .default("")
      .transform((list) =>
        list
          .split(",")
          .map((host) => host.trim().toLowerCase())
          .filter(Boolean),
      ),
    UNVERIFIED_SPEND_LIMIT: z.coerce
      .number({ error: "must be a number of credits" })
      .int({ error: "must be a whole number of credits" })
      .min(0, { error: "must be 0 or more" })
      .optional(),
    RATE_LIMIT_SCALE: z.coerce.number({ error: "must be a number" }).positive({ error: "must be greater than 0" }).default(1),
    TRUST_CF_CONNECTING_IP: z
      .enum(["true", "false"], { error: 'must be "true" or "false"' })
      .transform((value) => value === "true")
      .optional(),
    JWT_SECRET: z
      .string({ error: "is missing (set it in .dev.vars or with `wrangler secret put JWT_SECRET`)" })
      .min(32, { error: "must be at least 32 characters" }),
    RESEND_API_KEY: z.string().min(1).optional(),
    EMAIL_FROM: z.string().min(3).default("Deep Research <no-reply@deep-research.local>"),
    STRIPE_SECRET_KEY: z.string().startsWith("sk_", { error: 'must start with "sk_"' }).optional(),
    STRIPE_WEBHOOK_SECRET: z.string().startsWith("whsec_", { error: 'must start with "whsec_"' }).optional(),
    STRIPE_METER_EVENT_NAME: z.string().min(1).default("research_credits"),
    SEARCH_PROVIDER: z.enum(providerNames(SEARCH_PROVIDER), { error: `must be ${oneOf(SEARCH_PROVIDER)}` }).default(SEARCH_PROVIDER.default),
    LLM_PROVIDER: z.enum(providerNames(LLM_PROVIDER), { error: `must be ${oneOf(LLM_PROVIDER)}` }).default(LLM_PROVIDER.default),
    SEARXNG_URL: z.url({ error: "must be an absolute http(s) URL" }).optional(),
    OPENAI_BASE_URL: z.url({ error: "must be an absolute http(s) URL" }).optional(),
    DNS_OVER_HTTPS_URL: z.url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" }).optional(),
    LLM_CONTEXT_TOKENS: z.coerce
      .number({ error: "must be a number of tokens" })
      .int({ error: "must be a whole number of tokens" })
      .min(1024, { error: "must be at least 1024 tokens" })
      .optional(),
    // One model call: at least a second (less fails every call), at most the longest wall clock of a mode (600 s).
    LLM_TIMEOUT_MS: z.coerce
      .number({ error: "must be a number of milliseconds" })
      .int({ error: "must be a whole number of milliseconds" })
      .min(1_000, { error: "must be at least 1000 ms" })
      .max(600_000, { error: "must be at most 600000 ms (10 minutes)" })
      .optional(),
    READER_TIMEOUT_MS: z.coerce.number({ error: "must be a number" }).int().positive().optional(),
    TASK_FAN_OUT: z.enum(["auto", "queue"], { error: 'must be "auto" or "queue"' }).default("auto"),
    BRAVE_API_KEY: z.string().optional(),
    TAVILY_API_KEY: z.string().optional(),
    EXA_API_KEY: z.string().optional(),
    ANTHROPIC_API_KEY: z.string().optional(),
  })
  .superRefine((config, context) => {
    // A provider without its key would fail every job as an internal error: say so at the first request.
    for (const choice of [SEARCH_PROVIDER, LLM_PROVIDER]) {
      const name = config[choice.variable];
      for (const key of missingVariables(choice, name, config)) {
        context.addIssue({ code: "custom", path: [key], message: `is required when ${choice.variable}=${name}` });
      }
    }
    // A copied placeholder passes the length check but signs every token with a published key.
    if (config.ENVIRONMENT === "production" && isPlaceholderSecret(config.JWT_SECRET)) {
      context.addIssue({
        code: "custom",
        path: ["JWT_SECRET"],
        message: "is a placeholder, not a secret: generate one with `openssl rand -hex 32` and set it with `wrangler secret put JWT_SECRET`",
      });
    }
  });

/** The example in .dev.vars.example, the test suite's secret, template words, or too few distinct characters to be random. */
function isPlaceholderSecret(secret: string): boolean {
  return /replace|placeholder|change-?me|example|your[-_ ]?secret|test-secret|random-hex/i.test(secret) || new Set(secret).size < 10;
}

/**
 * The configuration after validation: typed, defaulted and normalised. `prices` holds the
 * processor price ids, by the variable a catalog row names (STRIPE_PRICE_STARTER, ...), so
 * billing reads prices from the configuration and never from the bindings.
 */
export type Config = z.infer<typeof configSchema> & { prices: Readonly<Record<string, string>> };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join("; ")}`);
    this.name = "ConfigError";
  }
}

const checked = new WeakMap<object, Config>();

/**
 * Validates the environment once per env object (one per isolate in production) and names
 * every missing or malformed variable, so a misconfigured deploy fails loudly and clearly.
 */
export function loadConfig(env: Env): Config {
  const cached = checked.get(env);
  if (cached) return cached;
  const emptyToUndefined = Object.fromEntries(Object.entries(env).map(([key, value]) => [key, value === "" && key !== "ADMIN_EMAILS" ? undefined : value]));
  const result = configSchema.safeParse(emptyToUndefined);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`));
  }
  const prices = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[0].startsWith("STRIPE_PRICE_") && typeof entry[1] === "string" && entry[1] !== ""),
  );
  const config = { ...result.data, prices };
  checked.set(env, config);
  return config;
}

/** Makes `env` from "cloudflare:workers" carry these bindings too. */
type WorkerBindings = Env;
declare global {
  namespace Cloudflare {
    interface Env extends WorkerBindings {}
  }
}

/**
 * `--llm openai|anthropic [--model <id>]`: the eval's service started with a hosted model, the same
 * eval through the same service. The base URL and the key come from the environment
 * (OPENAI_BASE_URL, OPENAI_API_KEY; ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL), as the service's own
 * variables: the provider, model and URL are passed as `--var`, the key never is (a command line
 * is visible to `ps` and lands in logs). It goes into an env file readable only by its owner, in
 * the server's temporary state directory, which is removed when the server stops.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export const EVAL_LLMS = ["openai", "anthropic"] as const;
export type EvalLlm = (typeof EVAL_LLMS)[number];

export interface ModelChoice {
  provider: EvalLlm;
  /** LLM_MODEL; unset: the service's default for the provider. */
  model?: string;
}

export interface ModelSettings {
  /** Passed as `--var KEY:VALUE`: nothing secret. */
  vars: Record<string, string>;
  /** Written to an owner-only env file, never on a command line or in a log. */
  secrets: Record<string, string>;
  /** What the report says about the model (no secret in it). */
  description: string;
}

export class ModelSettingsError extends Error {}

/** The service's variables for the chosen model, from the environment. */
export function modelSettings(choice: ModelChoice, env: NodeJS.ProcessEnv = process.env): ModelSettings {
  const vars: Record<string, string> = { LLM_PROVIDER: choice.provider };
  const secrets: Record<string, string> = {};
  if (choice.model) vars.LLM_MODEL = choice.model;
  if (env.LLM_CONTEXT_TOKENS) vars.LLM_CONTEXT_TOKENS = env.LLM_CONTEXT_TOKENS;
  // A capable model behind a relay answers slower than the 90 s a call is given by default.
  if (env.LLM_TIMEOUT_MS) vars.LLM_TIMEOUT_MS = env.LLM_TIMEOUT_MS;
  let where: string;
  if (choice.provider === "openai") {
    if (env.OPENAI_BASE_URL) vars.OPENAI_BASE_URL = env.OPENAI_BASE_URL;
    where = env.OPENAI_BASE_URL ?? "https://api.openai.com/v1";
    if (env.OPENAI_API_KEY) secrets.OPENAI_API_KEY = env.OPENAI_API_KEY;
    else if (!env.OPENAI_BASE_URL)
      throw new ModelSettingsError("--llm openai needs OPENAI_API_KEY in the environment (or OPENAI_BASE_URL for a local server without a key)");
  } else {
    if (env.ANTHROPIC_BASE_URL) vars.ANTHROPIC_BASE_URL = env.ANTHROPIC_BASE_URL;
    where = env.ANTHROPIC_BASE_URL ?? "https://api.anthropic.com";
    if (!env.ANTHROPIC_API_KEY) throw new ModelSettingsError("--llm anthropic needs ANTHROPIC_API_KEY in the environment");
    secrets.ANTHROPIC_API_KEY = env.ANTHROPIC_API_KEY;
  }
  for (const [key, value] of Object.entries(vars)) {
    // wrangler splits --var at the first colon only, but a line break would end the argument's meaning.
    if (/[\r\n]/.test(value)) throw new ModelSettingsError(`${key} must be on one line`);
  }
  const keyNote = Object.keys(secrets).length ? `, key from ${Object.keys(secrets).join(", ")}` : ", no key";
  return { vars, secrets, description: `${choice.provider} model ${choice.model ?? "(the service's default)"} at ${where}${keyNote}` };
}

/** Writes the secrets as an env file wrangler reads (`--env-file`), readable by its owner only; its path. */
export function writeSecretsFile(dir: string, secrets: Record<string, string>): string {
  const path = join(dir, "eval-secrets.env");
  const lines = Object.entries(secrets).map(([key, value]) => {
    if (/[\r\n]/.test(value)) throw new ModelSettingsError(`${key} must be on one line`);
    return `${key}=${JSON.stringify(value)}`;
  });
  writeFileSync(path, `${lines.join("\n")}\n`, { mode: 0o600 });
  return path;
}

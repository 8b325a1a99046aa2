/**
 * Models their providers have retired or scheduled to retire, with the date and where it is said:
 * a deployment configured with one gets a warning when its model is made (issue 41, item 10), not
 * a silent stream of failed calls. Kept by hand; checked 2026-11-27 (DEFAULT_MODELS_CHECKED).
 */
export interface Retirement {
  provider: "openai" | "anthropic" | "workers-ai";
  model: string;
  /** The day the model stops answering (or stopped). */
  date: string;
  source: string;
}

export const RETIREMENTS: Retirement[] = [
  { provider: "openai", model: "gpt-4o-mini", date: "2027-01-14", source: "https://developers.openai.com/api/docs/deprecations" },
  {
    provider: "anthropic",
    model: "claude-3-5-haiku-latest",
    date: "2026-02-19",
    source: "https://platform.claude.com/docs/en/about-claude/model-deprecations",
  },
  {
    provider: "anthropic",
    model: "claude-3-5-haiku-20241022",
    date: "2026-02-19",
    source: "https://platform.claude.com/docs/en/about-claude/model-deprecations",
  },
  {
    provider: "workers-ai",
    model: "@cf/meta/llama-3.1-8b-instruct",
    date: "2026-05-30",
    source: "https://developers.cloudflare.com/changelog/post/2026-05-08-planned-model-deprecations/",
  },
];

/** The warning for a configured model on the list (retired, or retiring on a later date), or null. */
export function retirementWarning(provider: string, model: string, today: string = new Date().toISOString().slice(0, 10)): string | null {
  const retirement = RETIREMENTS.find((entry) => entry.provider === provider && entry.model === model);
  if (!retirement) return null;
  const when = retirement.date <= today ? `was retired on ${retirement.date}: its calls fail` : `retires on ${retirement.date}`;
  return `LLM_MODEL ${model} (${provider}) ${when}; choose a current model (${retirement.source}).`;
}

const warned = new Set<string>();

/** Warns once per isolate and model (the model is made for every job). */
export function warnIfRetiring(provider: string, model: string, warn: (message: string) => void = console.warn): void {
  const message = retirementWarning(provider, model);
  if (!message || warned.has(`${provider}:${model}`)) return;
  warned.add(`${provider}:${model}`);
  warn(message);
}

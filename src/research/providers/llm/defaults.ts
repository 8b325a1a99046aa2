/**
 * The model each hosted provider uses when LLM_MODEL is unset, in one place with the date it was
 * last checked against the provider's own lifecycle page: a default the provider has retired
 * fails every call of a deployment that never chose a model (issue 41, item 2). `npm run deploy`
 * reads the Workers AI one from this file (scripts/deploy.mjs: the writer it chooses by default).
 *
 * Checked 2026-11-27:
 * - Anthropic: claude-haiku-5-5 is the current Haiku ("Latest", released 2026-10-07); Claude Haiku 4.5
 *   is legacy and Claude 3.5 Haiku was retired on 2026-02-19.
 *   https://platform.claude.com/docs/en/models/haiku-5-5/overview,
 *   https://platform.claude.com/docs/en/about-claude/model-deprecations
 * - OpenAI: gpt-6-luna, the replacement OpenAI names for gpt-4o-mini (shut down on 2027-01-14),
 *   $0.10 per million input tokens and $0.50 per million output tokens (README "Cost per job"); a
 *   reasoning model, asked with `reasoning_effort: "none"` (providers/llm/openai.ts).
 *   https://developers.openai.com/api/docs/deprecations, https://developers.openai.com/api/docs/models/gpt-6-luna
 * - Workers AI: @cf/zai-org/glm-4.7-flash, a replacement Cloudflare recommends for
 *   @cf/meta/llama-3.1-8b-instruct (deprecated 2026-05-30); $0.06 per million input tokens and
 *   $0.40 per million output tokens (README "Deploy").
 *   https://developers.cloudflare.com/changelog/post/2026-05-08-planned-model-deprecations/,
 *   https://developers.cloudflare.com/workers-ai/models/glm-4.7-flash/
 */
export const DEFAULT_MODELS_CHECKED = "2026-11-27";

export const DEFAULT_MODELS = {
  openai: "gpt-6-luna",
  anthropic: "claude-haiku-5-5",
  "workers-ai": "@cf/zai-org/glm-4.7-flash",
} as const;

/**
 * The model each hosted provider uses when LLM_MODEL is unset, in one place with the date it was
 * last checked against the provider's own lifecycle page: a default the provider has retired
 * fails every call of a deployment that never chose a model (issue 41, item 2).
 *
 * Checked 2026-11-27:
 * - Anthropic: claude-haiku-5-5 is the current Haiku ("Latest", released 2026-10-07); Claude Haiku 4.5
 *   is legacy and Claude 3.5 Haiku was retired on 2026-02-19.
 *   https://platform.claude.com/docs/en/models/haiku-5-5/overview,
 *   https://platform.claude.com/docs/en/about-claude/model-deprecations
 * - OpenAI: gpt-4o-mini is deprecated, shut down on 2027-01-14; kept until a successor is priced
 *   here (README "Cost per job"). https://developers.openai.com/api/docs/deprecations
 */
export const DEFAULT_MODELS_CHECKED = "2026-11-27";

export const DEFAULT_MODELS = {
  openai: "gpt-4o-mini",
  anthropic: "claude-haiku-5-5",
} as const;

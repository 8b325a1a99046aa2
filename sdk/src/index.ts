export { DeepResearch, type DeepResearchOptions } from "./client.js";
export type { CreditsCalls, CreditsResource, ModesCalls, ModesResource, WebhooksResource } from "./account.js";
export type { JobListQuery, ResearchCalls, ResearchResource } from "./research-resource.js";
export { ApiPromise, type WithResponse } from "./api-promise.js";
export { Collections, type UploadFile } from "./collections.js";
export { Monitors } from "./monitors.js";
export {
  AuthenticationError,
  ConflictError,
  ConnectionError,
  DeepResearchError,
  EmailNotVerifiedError,
  InsufficientCreditsError,
  InvalidRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResearchCancelledError,
  ServerError,
  TimeoutError,
} from "./errors.js";
export { DEFAULT_BASE_URL, DEFAULT_TIMEOUT_MS, type RequestOptions } from "./http.js";
export { Jobs } from "./jobs.js";
export { TERMINAL_STATUSES } from "./job-statuses.js";
export { PagePromise, type Paging } from "./pagination.js";
export type { QuoteOptions, ResearchInput, ResearchOptions, SubmitOptions, Submitted } from "./research.js";
export type { FetchLike, RetryOptions } from "./retry.js";
export type { StreamOptions } from "./stream.js";
export {
  anthropicTool,
  checkToolArguments,
  openAIChatTool,
  openAIResponsesTool,
  parseToolArguments,
  RESEARCH_TOOL_CREDITS,
  RESEARCH_TOOL_MODES,
  RESEARCH_TOOL_NAME,
  researchToolDefinition,
  researchToolInputSchema,
  researchToolOutput,
  runToolCall,
  ToolArgumentsError,
  vercelAiTool,
  type JsonSchema,
  type ResearchToolArguments,
  type ResearchToolClient,
  type ResearchToolDefinition,
  type ResearchToolInput,
  type ResearchToolMode,
  type ResearchToolOutput,
  type ResearchToolParameters,
  type StrictOption,
  type ToolArgumentIssue,
  type ToolCallOptions,
  type ToolInputSchema,
  type VercelAiTool,
} from "./tools.js";
export * from "./types.js";
export {
  TERMINAL_WEBHOOK_EVENTS,
  verifyWebhook,
  WebhookVerificationError,
  type VerifiedWebhook,
  type VerifyWebhookOptions,
  type WebhookEnvelope,
  type WebhookHeaders,
} from "./webhooks.js";
export type { components, paths } from "./schema.js";

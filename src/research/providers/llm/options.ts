/** What every hosted model is built with besides its provider's own settings. */
export interface ModelOptions {
  /** Per-call timeout (`LLM_TIMEOUT_MS`; the job's own abort signal still stops a call sooner). */
  timeoutMs?: number;
  /** The model's context window in tokens (`LLM_CONTEXT_TOKENS`): a hint stages size their evidence to. */
  contextTokens?: number;
}

/**
 * A call that has not answered in this long fails as retryable (askModel retries it within the time
 * left), unless LLM_TIMEOUT_MS says otherwise: a capable model relayed from elsewhere can take longer.
 */
export const MODEL_TIMEOUT_MS = 90_000;

import { ProviderError } from "../types";

/**
 * A call the provider answered (HTTP 200) without text the engine can use: the output budget went
 * to thinking (`max_tokens`, `length`), a safety classifier stopped it (`refusal`), or nothing came
 * back. It fails like any provider error, so the stage falls back to its offline version and
 * askModel charges nothing for it. The status is the 200 the provider sent, which makes it not
 * retryable: the same request would stop the same way.
 */
export function noText(provider: string, why: string): ProviderError {
  return new ProviderError(provider, `answered no usable text (${why})`, 200);
}

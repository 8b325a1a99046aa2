import { ProviderError } from "./types";

export const USER_AGENT = "DeepResearchBot/0.1 (+https://github.com/deep-research-api; research agent)";

/** fetch with a timeout that also follows the caller's abort signal. */
export async function fetchWithTimeout(url: string, init: RequestInit & { timeoutMs: number; signal?: AbortSignal }): Promise<Response> {
  const { timeoutMs, signal, ...rest } = init;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", onAbort);
  try {
    return await fetch(url, { ...rest, signal: controller.signal });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}

/** POST/GET JSON to a provider API; non-2xx becomes a ProviderError carrying the status. */
export async function providerJson<T>(provider: string, url: string, init: RequestInit & { timeoutMs?: number; signal?: AbortSignal }): Promise<T> {
  let response: Response;
  try {
    response = await fetchWithTimeout(url, { timeoutMs: 20_000, ...init });
  } catch (error) {
    throw new ProviderError(provider, `request failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!response.ok) {
    const detail = (await response.text().catch(() => "")).slice(0, 300);
    const reason = response.status === 429 ? "rate limited" : `HTTP ${response.status}`;
    throw new ProviderError(provider, `${reason}${detail ? `: ${detail}` : ""}`, response.status);
  }
  try {
    return (await response.json()) as T;
  } catch {
    throw new ProviderError(provider, "answered with a body that is not JSON", response.status);
  }
}

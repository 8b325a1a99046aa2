/**
 * The deep_research calls this isolate is following, so that a client's `notifications/cancelled`
 * (which arrives in a request of its own, to a server instance of its own: the endpoint is
 * stateless) can find the job to cancel. A call is known by its API key, the MCP session id the
 * endpoint issued at initialize, and its JSON-RPC request id. Without a session id a request id
 * is ambiguous (every client counts from 0), so such calls are not tracked.
 *
 * Best effort by nature: the isolate that receives the cancellation may not be the one following
 * the call. Entries hold data only, never another request's objects (the Workers runtime forbids
 * I/O on behalf of another request): the cancelling request cancels the job with its own bindings.
 */

export interface TrackedJob {
  userId: string;
  jobId: string;
}

const calls = new Map<string, TrackedJob>();

/** Session ids as the MCP spec allows them: visible ASCII; longer ones are not ours. */
const SESSION_ID_FORMAT = /^[\x21-\x7e]{1,128}$/;

export function validSessionId(value: string | undefined | null): string | null {
  return value && SESSION_ID_FORMAT.test(value) ? value : null;
}

const keyOf = (apiKeyId: string, sessionId: string, requestId: string | number) => JSON.stringify([apiKeyId, sessionId, requestId]);

/** Tracks a call until the returned function is called. */
export function trackCall(apiKeyId: string, sessionId: string | null, requestId: string | number, job: TrackedJob): () => void {
  if (!sessionId) return () => {};
  const key = keyOf(apiKeyId, sessionId, requestId);
  calls.set(key, job);
  return () => {
    if (calls.get(key) === job) calls.delete(key);
  };
}

/** The job of a tracked call, forgotten at once (a cancellation is acted on once). */
export function takeCall(apiKeyId: string, sessionId: string | null, requestId: string | number): TrackedJob | undefined {
  if (!sessionId) return undefined;
  const key = keyOf(apiKeyId, sessionId, requestId);
  const job = calls.get(key);
  calls.delete(key);
  return job;
}

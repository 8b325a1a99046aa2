import type { Context } from "hono";

/**
 * Sets headers on the response a handler already answered. A response passed through from
 * elsewhere (a Durable Object's SSE stream, a fetch) has immutable headers: it is re-wrapped,
 * body untouched, so streams keep streaming.
 */
export function withHeaders(c: Context, headers: Record<string, string>): void {
  try {
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  } catch {
    const response = new Response(c.res.body, c.res);
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    c.res = response;
  }
}

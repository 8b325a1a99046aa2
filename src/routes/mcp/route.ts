import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isInitializeRequest, isJSONRPCNotification } from "@modelcontextprotocol/sdk/types.js";
import { type Context, Hono } from "hono";
import { cancelJob } from "../../research/service";
import { type McpEnv, mcpAuth, mcpChallenge } from "./auth";
import type { McpCaller } from "./caller";
import { takeCall, validSessionId } from "./in-flight";
import { createMcpServer } from "./server";

/** Far above any valid call (a question is at most 2,000 characters, a response_schema 16 KiB). */
const MAX_BODY_BYTES = 1024 * 1024;

/** A client that aborts a call names it in notifications/cancelled: cancel its job if this isolate follows it. */
function cancelTrackedCall(caller: McpCaller, requestId: unknown): void {
  if (typeof requestId !== "string" && typeof requestId !== "number") return;
  const job = takeCall(caller.credentialId, caller.sessionId, requestId);
  if (!job || job.userId !== caller.user.id) return;
  caller.deps.defer(cancelJob(caller.deps, job.userId, job.jobId).catch((error) => console.error(`mcp: cancelling job ${job.jobId}`, error)));
}

/** The response body, passed through; if the client stops reading (it went away), `onCancel` runs. */
function noticingCancel(body: ReadableStream<Uint8Array>, onCancel: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      onCancel();
      return reader.cancel(reason);
    },
  });
}

/**
 * POST /mcp: the MCP endpoint (Streamable HTTP), authenticated like /v1 (the same API-key
 * middleware: 401, 403 for a suspended account, the /v1 rate limits) or by an OAuth access token
 * of a connection the customer approved on the dashboard (auth.ts).
 *
 * Stateless: each POST gets its own server and transport, so any isolate can answer any request
 * and nothing lives between them. The initialize response still carries an Mcp-Session-Id; it
 * holds no state and is never required, but a client sends it back, which lets a
 * notifications/cancelled find the call it names (see in-flight.ts). Closing the connection
 * mid-call closes the transport, which aborts the call (and so cancels its job).
 */
async function handleMcpPost(c: Context<McpEnv>, version: string): Promise<Response> {
  const connection = c.get("oauthConnection") ?? null;
  const apiKeyId = connection ? null : c.get("apiKeyId");
  const caller: McpCaller = {
    deps: c.get("deps"),
    user: c.get("user"),
    apiKeyId,
    connection,
    credentialId: connection?.id ?? c.get("apiKeyId"),
    origin: new URL(c.req.url).origin,
    sessionId: validSessionId(c.req.header("Mcp-Session-Id")),
  };
  const transport = new WebStandardStreamableHTTPServerTransport({ maxRequestBodySize: MAX_BODY_BYTES });
  await createMcpServer(caller, version).connect(transport);
  let initialize = false;
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (isInitializeRequest(message)) initialize = true;
    else if (isJSONRPCNotification(message) && message.method === "notifications/cancelled") cancelTrackedCall(caller, message.params?.requestId);
    deliver?.(message, extra);
  };
  const response = await transport.handleRequest(c.req.raw);
  const headers = new Headers(response.headers);
  if (initialize && response.ok) headers.set("Mcp-Session-Id", crypto.randomUUID());
  // As for the jobs' own event streams: no compression, so each progress notification leaves at once.
  if (headers.get("Content-Type")?.startsWith("text/event-stream")) headers.set("Content-Encoding", "identity");
  const body = response.body && noticingCancel(response.body, () => void transport.close());
  // Through the context, so the headers the middleware set (X-Request-Id) are kept.
  return c.newResponse(body, { status: response.status as 200, headers });
}

/**
 * The endpoint at /mcp and at /mcp/ (some MCP clients send the slash: issue 39), mounted at the
 * root because a sub-router cannot tell the two apart. "/mcp/*" also matches /mcp itself, so the
 * middleware runs once for either spelling; any other path under /mcp is the app's JSON 404.
 */
export function mcpRoutes(version: string) {
  const router = new Hono<McpEnv>();
  router.use("/mcp/*", mcpChallenge);
  router.use("/mcp/*", mcpAuth);
  for (const path of ["/mcp", "/mcp/"]) {
    router.post(path, (c) => handleMcpPost(c, version));
    // No server-initiated stream (GET) and no session to end (DELETE): the MCP spec lets a server answer 405.
    router.all(path, (c) =>
      c.json({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: POST JSON-RPC messages to this endpoint." }, id: null }, 405, {
        Allow: "POST",
      }),
    );
  }
  return router;
}

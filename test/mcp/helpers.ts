import { exports } from "cloudflare:workers";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { BASE, randomIp } from "../helpers";

/**
 * The worker's fetch handler as the MCP client's fetch. Over HTTP, aborting a fetch drops the
 * connection and the server sees its response stream cancelled; in-process nothing would, so this
 * cancels the response body when the client's signal aborts (what the server's runtime does).
 */
async function workerFetch(url: string | URL, init: RequestInit = {}, onRequest?: (body: unknown) => void): Promise<Response> {
  const { signal, ...rest } = init;
  const request = new Request(url, rest);
  if (onRequest && typeof rest.body === "string") onRequest(JSON.parse(rest.body));
  request.headers.set("CF-Connecting-IP", randomIp());
  const response = await exports.default.fetch(request);
  if (!response.body || !signal) return response;
  const reader = response.body.getReader();
  signal.addEventListener("abort", () => void reader.cancel(signal.reason).catch(() => {}), { once: true });
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(body, response);
}

/**
 * The official MCP client, connected to /mcp with an API key (JSON Schema checks without eval, as
 * workerd requires). `onRequest` sees each JSON-RPC message it posts.
 */
export async function mcpClient(key: string, onRequest?: (message: unknown) => void): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: "workers-test", version: "1.0.0" }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
    fetch: (url, init) => workerFetch(url, init, onRequest),
  });
  await client.connect(transport);
  return { client, transport };
}

export const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");

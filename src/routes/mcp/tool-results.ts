import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ApiError } from "../../lib/errors";

/**
 * Tool results. A failure of the tool's work (an ApiError of the service: 402, 404, a request the
 * REST API would reject) is a result with `isError: true` whose text is the REST body's code and
 * message, so a model can read and correct it (MCP: tool execution errors are results, not
 * protocol errors). An unexpected error is logged and reported as `internal`, never its message.
 */
export function toolError(error: unknown): CallToolResult {
  const known = error instanceof ApiError ? error : internalError(error);
  return { isError: true, content: [{ type: "text", text: `${known.code}: ${known.message}` }] };
}

function internalError(error: unknown): ApiError {
  console.error("mcp: tool failed", error);
  return new ApiError("internal", "Internal error.");
}

/** A result whose text a model reads and whose structured content matches the tool's output schema. */
export function toolResult(text: string, structured: Record<string, unknown>, isError = false): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: structured, ...(isError ? { isError } : {}) };
}

/** Runs a tool's work; any throw becomes an error result. */
export async function asTool(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    return toolError(error);
  }
}

import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { quote } from "../../research/service";
import type { McpCaller } from "./caller";
import { quoteText } from "./format";
import { type QuoteArgsValue, researchRequest } from "./research-args";
import { asTool, toolResult } from "./tool-results";

/**
 * quote_research: POST /v1/research/quote for the request deep_research and start_research would
 * submit with these arguments: its price, envelope and whether the balance covers it. Nothing is
 * reserved, written or charged; a quote that is not covered is an answer, not an error.
 */
export function quoteResearch(caller: McpCaller) {
  return (args: QuoteArgsValue): Promise<CallToolResult> =>
    asTool(async () => {
      const quoted = await quote(caller.deps, caller.user, researchRequest(args));
      return toolResult(quoteText(quoted), quoted);
    });
}

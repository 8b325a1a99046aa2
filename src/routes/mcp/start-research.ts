import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpCaller } from "./caller";
import { startedText } from "./format";
import { type ResearchArgsValue, submitArgs } from "./research-args";
import { asTool, toolResult } from "./tool-results";

/**
 * start_research: deep_research's submit without the wait, for clients whose tool calls time out
 * before a pro or max job ends. It answers at once with the job's id (POST /v1/research's 202);
 * get_research reads the job, cancel_research stops it. The job outlives this call: ending the
 * call does not cancel it.
 */
export function startResearch(caller: McpCaller) {
  return (args: ResearchArgsValue): Promise<CallToolResult> =>
    asTool(async () => {
      const { request, submitted } = await submitArgs(caller, args);
      // The request is always asynchronous (research-args.ts), and an asynchronous submit answers 202.
      if (submitted.status !== 202) throw new Error(`start_research: an asynchronous submit answered ${submitted.status}`);
      return toolResult(startedText(submitted.body, request.mode), submitted.body);
    });
}

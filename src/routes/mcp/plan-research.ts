import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createPlan, type ResearchPlanBody } from "../../research/service";
import type { McpCaller } from "./caller";
import { type QuoteArgsValue, researchRequest } from "./research-args";
import { asTool, toolResult } from "./tool-results";

/** What plan_research says: the plan, numbered, and how to run it (or an edit of it). */
export function planText(plan: ResearchPlanBody): string {
  const lines = [
    `Plan ${plan.plan_id} for a ${plan.mode} job (made by the ${plan.planner}; nothing was run, reserved or charged; it expires at ${plan.expires_at} and runs once).`,
    plan.sub_questions.length > 0 ? `Sub-questions:\n${plan.sub_questions.map((text, i) => `${i + 1}. ${text}`).join("\n")}` : "Sub-questions: none.",
    `First searches (at most ${plan.max_queries}):\n${plan.queries.map((text, i) => `${i + 1}. ${text}`).join("\n")}`,
    `It would reserve ${plan.quote.credits_reserved} credits and charge at most ${plan.quote.max_charge_credits}.`,
    "To run it, call deep_research or start_research with the same question and mode and plan_id; send queries and sub_questions to run your edits of it instead.",
  ];
  return lines.join("\n");
}

/**
 * plan_research: POST /v1/research/plan for the request deep_research and start_research would
 * submit with these arguments: the plan the job would run, to review and edit. Free.
 */
export function planResearch(caller: McpCaller) {
  return (args: QuoteArgsValue): Promise<CallToolResult> =>
    asTool(async () => {
      const plan = await createPlan({ ...caller.deps, user: caller.user }, researchRequest(args));
      return toolResult(planText(plan), plan);
    });
}

import type { ResearchPlan } from "../types.js";
import { quoteParts } from "./quote.js";

const PLANNER: Record<ResearchPlan["planner"], string> = {
  model: "model (the configured model's plan stage)",
  engine: "engine (the engine's own plan: no model planned it)",
};

/** A word for a shell: single-quoted unless it needs nothing. */
const shellWord = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`);

/**
 * A plan as `deep-research plan` prints it on stdout: its id and expiry, who planned it, the
 * sub-questions, the numbered first searches, the envelope and the quote's price, then the command
 * that runs it and how to edit it.
 */
export function planText(plan: ResearchPlan): string {
  const { price, limits, balance } = quoteParts(plan.quote);
  const subQuestions = plan.sub_questions.length > 0 ? plan.sub_questions.map((text) => `    - ${text}`) : ["    (none)"];
  // A metered mode's run needs its --max-credits: the quote's most it may charge is that figure.
  const maxCredits = plan.quote.metered ? ` --max-credits ${plan.quote.max_charge_credits}` : "";
  const queries = plan.queries.map((query, index) => `    ${index + 1}. ${query}`);
  return [
    `Plan for a ${plan.mode} job (free: nothing ran, nothing was reserved or charged):`,
    `  plan_id     ${plan.plan_id}`,
    `  expires_at  ${plan.expires_at} (a plan runs once)`,
    `  planner     ${PLANNER[plan.planner]}`,
    `  question    ${plan.question}`,
    "  sub-questions",
    ...subQuestions,
    `  first searches (at most ${plan.max_queries})`,
    ...queries,
    `  envelope    ${limits}`,
    `  price       ${price}`,
    `  balance     ${balance}`,
    "",
    `Run it (with the same options): deep-research ${shellWord(plan.question)} --mode ${plan.mode}${maxCredits} --plan ${plan.plan_id}`,
    `Edit it: add --query "..." once per first search (they replace the plan's, in order) and --sub-question "..." once per sub-question.`,
  ].join("\n");
}

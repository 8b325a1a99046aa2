import { z } from "@hono/zod-openapi";
import { MAX_PLAN_QUERY_CHARS, MAX_PLAN_SUB_QUESTIONS, MAX_SUB_QUESTION_CHARS } from "../engine/plan";
import { MODES, RESEARCH_MODES } from "../pricing";

/** The widest first wave of any mode: the schema's bound on edited queries (the mode's own is checked at submit). */
export const MAX_PLAN_QUERIES = Math.max(...RESEARCH_MODES.map((mode) => MODES[mode].branches));
const planQuery = z
  .string()
  .trim()
  .min(1, { error: "must not be empty" })
  .max(MAX_PLAN_QUERY_CHARS, { error: `must be at most ${MAX_PLAN_QUERY_CHARS} characters` });
const subQuestion = z
  .string()
  .trim()
  .min(1, { error: "must not be empty" })
  .max(MAX_SUB_QUESTION_CHARS, { error: `must be at most ${MAX_SUB_QUESTION_CHARS} characters` });

/** The submit's fields that run a reviewed plan (added to ResearchRequestSchema). */
export const PlanFields = {
  plan_id: z.uuid({ error: "must be a plan id" }).optional().openapi({
    description:
      "Runs a plan made by `POST /v1/research/plan` for the same `question` and `mode` (else 400): wave 1 searches exactly its queries, or `queries` when sent. A plan runs once and expires an hour after it was made; an unknown, expired or another account's plan is 404.",
    example: "4b1d8c3e-6a0f-4f8e-9d2a-0c5b7e1f3a92",
  }),
  sub_questions: z
    .array(subQuestion)
    .max(MAX_PLAN_SUB_QUESTIONS)
    .optional()
    .openapi({
      description: `With \`plan_id\`: the plan's sub-questions as you edited them (at most ${MAX_PLAN_SUB_QUESTIONS}, each 1 to ${MAX_SUB_QUESTION_CHARS} characters); what a model's reflection checks after each wave. Absent: the plan's.`,
      example: ["What did the Compromise Tariff of 1833 change?", "Did South Carolina repeal its nullification ordinance?"],
    }),
  queries: z
    .array(planQuery)
    .min(1)
    .max(MAX_PLAN_QUERIES)
    .optional()
    .openapi({
      description: `With \`plan_id\`: the first wave's searches as you edited them, searched exactly, in this order (1 to the mode's first-wave width: ${RESEARCH_MODES.map((mode) => `${mode} ${MODES[mode].branches}`).join(", ")}; each 1 to ${MAX_PLAN_QUERY_CHARS} characters, no two the same). Absent: the plan's.`,
      example: ["Compromise Tariff of 1833", "Nullification Crisis end"],
    }),
};

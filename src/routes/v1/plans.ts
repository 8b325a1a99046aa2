import { createRoute } from "@hono/zod-openapi";
import { accountLimitNote, withLimitState } from "../../http/account-limit-docs";
import { type createRouter, errorResponses, jsonBody, jsonResponse } from "../../http/openapi";
import { limitPerAccount } from "../../middleware/account-rate-limit";
import { createPlan, ResearchPlanDto, type ResearchPlanBody, ResearchRequestSchema } from "../../research/service";
import { researchQuoteExample, researchRequestExample } from "../research-examples";
import type { ResearchSurface } from "../research-routes";

/** The plan of researchRequestExample (lite: two first-wave searches), as the offline engine makes it. */
export const researchPlanExample: ResearchPlanBody = {
  plan_id: "4b1d8c3e-6a0f-4f8e-9d2a-0c5b7e1f3a92",
  question: researchRequestExample.question,
  mode: "lite",
  planner: "engine",
  sub_questions: [],
  queries: [researchRequestExample.question, "tariffs 1890s presidents"],
  max_queries: 2,
  envelope: researchQuoteExample.envelope,
  quote: researchQuoteExample,
  created_at: "2026-11-28T04:00:00.000Z",
  expires_at: "2026-11-28T05:00:00.000Z",
};

/**
 * POST /research/plan on a surface (/v1 with an API key, the playground with a JWT): the plan a
 * submit of this body would run, to review and edit, then run with `plan_id`. Free, and limited per
 * account on both surfaces (with a model configured each plan is a model call the service pays).
 */
export function addPlanRoute(
  router: ReturnType<typeof createRouter>,
  surface: Pick<ResearchSurface, "basePath" | "tags" | "security" | "operationNoun" | "surfaceNote">,
): void {
  const note = surface.surfaceNote ? ` ${surface.surfaceNote}` : "";
  router.openapi(
    createRoute({
      method: "post",
      path: "/research/plan",
      operationId: `plan${surface.operationNoun}`,
      tags: surface.tags,
      security: surface.security,
      summary: "Plan a research request for review",
      description:
        `Takes the body of \`POST ${surface.basePath}\` and answers the plan that submit would run, without running, reserving or charging anything: the sub-questions, the first wave's searches, the envelope, the quote (as \`POST ${surface.basePath}/quote\` answers) and a \`plan_id\`. ` +
        "With a model configured the plan is the model's plan stage (one call, which the service pays); without one it is the engine's own. " +
        `Edit it, then submit the same question and mode with \`plan_id\` (and your \`sub_questions\` and \`queries\`): the job's first wave searches exactly those queries. A plan expires an hour after it is made and runs once. The submit's own checks apply (400 \`invalid_request\` and \`impossible_budget\`, 404 for an unknown collection).` +
        accountLimitNote("account:plan", "plans") +
        note,
      middleware: [limitPerAccount("account:plan", "Too many plans for this account; retry later.")],
      request: { body: jsonBody(ResearchRequestSchema, researchRequestExample) },
      responses: {
        200: withLimitState(jsonResponse(ResearchPlanDto, "The plan, to review and run with `plan_id`", researchPlanExample)),
        ...errorResponses("invalid_request", "impossible_budget", "unauthorized", "not_found", "rate_limited"),
      },
    }),
    async (c) => c.json(await createPlan({ ...c.get("deps"), user: c.get("user") }, c.req.valid("json")), 200),
  );
}

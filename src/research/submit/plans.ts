import { z } from "@hono/zod-openapi";
import { researchPlans } from "../../db/schema/plans";
import type { Caller } from "../../db/schema/users";
import { ApiError } from "../../lib/errors";
import { HOUR, isoAfter, SECOND } from "../../lib/time";
import type { Deps } from "../../services/deps";
import { createChatModel, type ResearchInput } from "../engine";
import { computePlan } from "../engine/plan";
import { budgetsForMode, RESEARCH_MODES, type ResearchBudgets } from "../pricing";
import { quoteResearch, ResearchQuoteDto } from "./quote";
import type { ResearchRequest } from "../request/request";

/** A plan can be run for an hour after it was made (docs/decisions.md, "Reviewable plans"). */
export const PLAN_TTL_MS = HOUR;
/** How long the model's plan call may take before the engine's own plan stands. */
const PLAN_CALL_TIMEOUT_MS = 20 * SECOND;

export const ResearchPlanDto = z
  .object({
    plan_id: z.uuid().openapi({ description: "Send it as `plan_id` to `POST /v1/research` (with the same question and mode) to run this plan." }),
    question: z.string().openapi({ description: "The question planned." }),
    mode: z.enum(RESEARCH_MODES).openapi({ description: "The mode planned." }),
    planner: z.enum(["engine", "model"]).openapi({
      description:
        "Who made the plan: `model`, the configured model's plan stage; `engine`, the engine's own (no model configured, or its call was not usable).",
    }),
    sub_questions: z
      .array(z.string())
      .openapi({ description: "What the question breaks into (the model's plan; the engine's own plan has none). Edit and send as `sub_questions`." }),
    queries: z.array(z.string()).openapi({ description: "The first wave's searches, in order. Edit and send as `queries`." }),
    max_queries: z.number().int().openapi({ description: "How many first-wave searches the mode allows: the most `queries` may hold." }),
    envelope: ResearchQuoteDto.shape.envelope,
    quote: ResearchQuoteDto.openapi({ description: "What the submit would reserve and charge at most, as `POST /v1/research/quote` answers." }),
    created_at: z.string().openapi({ description: "When the plan was made (ISO 8601)." }),
    expires_at: z.string().openapi({ description: "After this (an hour after it was made) the plan can no longer run: 404." }),
  })
  .openapi("ResearchPlan", { description: "The plan a research job would run, to review and edit before running it. Making it charged nothing." });
export type ResearchPlanBody = z.infer<typeof ResearchPlanDto>;

type PlanContext = Pick<Deps, "db" | "config" | "env"> & { user: Caller };

/** The engine's input for a request, as the submit builds it. */
export function researchInput(request: ResearchRequest, budgets: ResearchBudgets): ResearchInput {
  return {
    question: request.question,
    mode: request.mode,
    budgets,
    include_domains: request.include_domains,
    exclude_domains: request.exclude_domains,
    include_sources: request.include_sources,
    response_schema: request.response_schema ?? null,
  };
}

/**
 * POST /research/plan: the submit's checks and quote (quoteResearch), then the plan a job of this
 * body would run, computed by the same stage the job's first wave runs, and stored an hour. Free:
 * no job, no reservation, no charge (a model's plan call is the service's cost, per account limited).
 */
export async function createPlan(ctx: PlanContext, request: ResearchRequest): Promise<ResearchPlanBody> {
  if (request.plan_id || request.sub_questions || request.queries) {
    throw ApiError.invalid("Invalid request: plan_id, sub_questions and queries are for POST /v1/research, not for making a plan.");
  }
  const quote = await quoteResearch(ctx, request);
  const budgets = budgetsForMode(request.mode, { maxCredits: request.max_credits, maxWallclockSecs: request.max_wallclock_secs });
  const computed = await computePlan(researchInput(request, budgets), createChatModel(ctx.env), PLAN_CALL_TIMEOUT_MS);
  const id = crypto.randomUUID();
  const createdAt = new Date();
  const row = {
    id,
    userId: ctx.user.id,
    question: request.question,
    mode: request.mode,
    requestJson: JSON.stringify(request),
    subQuestionsJson: JSON.stringify(computed.subQuestions),
    queriesJson: JSON.stringify(computed.queries),
    planner: computed.planner,
    costMicroUsd: Math.round(computed.costUsd * 1_000_000),
    createdAt: createdAt.toISOString(),
    expiresAt: isoAfter(PLAN_TTL_MS, createdAt),
  };
  await ctx.db.insert(researchPlans).values(row);
  return {
    plan_id: id,
    question: request.question,
    mode: request.mode,
    planner: computed.planner,
    sub_questions: computed.subQuestions,
    queries: computed.queries,
    max_queries: budgets.branches,
    envelope: quote.envelope,
    quote,
    created_at: row.createdAt,
    expires_at: row.expiresAt,
  };
}

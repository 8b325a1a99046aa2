import { z } from "@hono/zod-openapi";
import { type ReservationFunding, reservationFunding } from "../../services/billing/reservations";
import { emailNotVerified, unverifiedFloor } from "../../services/unverified-spending";
import { followUpBaseCredits, followUpWorkCredits, isMetered, RESEARCH_MODES, reservationCredits, roundUsd, USD_PER_CREDIT } from "../pricing";
import { planResearch, type ResearchPlan, type ResearchRequest } from "../request/request";
import { insufficientCredits, searchScope, type SubmitContext } from "./submit";
import { type FollowUpOf, followUpOf } from "./follow-up";

/** What a submit of the same body would reserve, run and charge at most, and whether it would be accepted now. */
export const ResearchQuoteDto = z
  .object({
    mode: z.enum(RESEARCH_MODES).openapi({ description: "The mode the job would run in." }),
    metered: z.boolean().openapi({ description: "True when the job pays its metered cost (capped by `max_credits`) rather than a fixed price." }),
    credits_reserved: z.number().int().openapi({ description: "Credits a submit reserves when it is accepted." }),
    max_charge_credits: z.number().int().openapi({ description: "The most the job can charge: a job never pays more than it reserved." }),
    max_charge_usd: z.number().openapi({ description: "`max_charge_credits` in USD (one credit is 0.01 USD)." }),
    envelope: z
      .object({
        max_waves: z.number().int().openapi({ description: "Search-and-read waves at most." }),
        max_searches: z.number().int().openapi({ description: "Searches at most." }),
        max_pages: z.number().int().openapi({ description: "Pages read at most." }),
        max_wallclock_secs: z.number().int().openapi({ description: "Wall clock at most, in seconds, from submit to result." }),
      })
      .openapi({ description: "The limits the job would run within." }),
    runs: z
      .enum(["sync", "async"])
      .openapi({ description: "`sync`: the submit answers 200 with the result; `async`: it answers 202 and the job is followed (poll, events or webhook)." }),
    balance_credits: z.number().int().openapi({ description: "Your balance now." }),
    covered: z.boolean().openapi({
      description:
        "Whether a submit now would be accepted: the balance covers the reservation (within an unverified account's spending bound), or a paid plan's overage does.",
    }),
    covered_by: z.enum(["balance", "plan_overage"]).nullable().openapi({
      description:
        "What would pay the reservation: the balance, or the paid plan's overage for what the balance lacks; null when nothing would (the submit would answer 402).",
    }),
    follow_up: z
      .object({
        previous_job_id: z.uuid().openapi({ description: "The job it follows up." }),
        thread: z.array(z.uuid()).openapi({ description: "The jobs before it in its thread, oldest first." }),
        fresh_credits: z
          .int()
          .openapi({ description: "What the same request would reserve (and, for lite, standard and pro, charge) asked fresh, without `previous_job_id`." }),
        base_credits: z
          .int()
          .nullable()
          .openapi({ description: "The fixed part of its price: a quarter of the mode's price, for the research it starts from. Null for max (metered)." }),
        max_work_credits: z.int().nullable().openapi({
          description: "The most its own metered work may come to (half the mode's price: its cost envelope). Null for max (`max_credits` caps it).",
        }),
        reason: z.string().openapi({ description: "Why it costs less, in one sentence with the figures." }),
      })
      .nullable()
      .openapi({
        description:
          "With `previous_job_id`: how the follow-up is priced. It starts from the previous job's evidence (never read again) and pays a quarter of the mode's price plus its own metered work, at most `credits_reserved`. Null for a request that follows no job.",
      }),
    insufficient_credits: z.string().nullable().openapi({
      description:
        "When not covered: the message the submit's refusal would carry (402 `insufficient_credits`, or 403 `email_not_verified` when only the unverified account's spending bound stands in the way); null otherwise.",
    }),
  })
  .openapi("ResearchQuote", { description: "The price of a research request before it runs: nothing is reserved, written or charged." });
export type ResearchQuote = z.infer<typeof ResearchQuoteDto>;

/**
 * POST /v1/research/quote: the submit's own checks (planResearch's 400s, the collections' 404),
 * then the price, the envelope and the funding a submit would meet, read without writing. The
 * idempotency key, the job row and the reservation are the submit's alone.
 */
export async function quoteResearch(ctx: Pick<SubmitContext, "db" | "config" | "user" | "env">, request: ResearchRequest): Promise<ResearchQuote> {
  const plan = await planResearch(request, ctx.config);
  await searchScope(ctx, request);
  const followUp = await followUpOf({ db: ctx.db, env: ctx.env, userId: ctx.user.id }, request.previous_job_id);
  const funding = await reservationFunding(ctx.db, ctx.user.id, plan.reservedCredits, unverifiedFloor(ctx.config));
  const { budgets } = plan;
  return {
    mode: plan.mode,
    metered: isMetered(plan.mode),
    credits_reserved: plan.reservedCredits,
    max_charge_credits: plan.reservedCredits,
    max_charge_usd: roundUsd(plan.reservedCredits * USD_PER_CREDIT),
    envelope: {
      max_waves: budgets.max_waves,
      max_searches: budgets.max_searches,
      max_pages: budgets.max_pages,
      max_wallclock_secs: budgets.max_wallclock_secs,
    },
    runs: plan.async ? "async" : "sync",
    balance_credits: funding.balance,
    covered: funding.fundedBy !== null,
    covered_by: funding.fundedBy,
    follow_up: followUp ? followUpQuote(plan, followUp) : null,
    insufficient_credits: funding.fundedBy ? null : refusal(plan, funding).message,
  };
}

/** What the submit would answer instead of reserving: 403 when only the unverified bound refuses it, else 402. */
function refusal(plan: ResearchPlan, funding: ReservationFunding) {
  return funding.unverifiedFloor !== undefined
    ? emailNotVerified(plan.reservedCredits, funding.balance, funding.unverifiedFloor)
    : insufficientCredits(plan, funding.balance);
}

/** The follow-up part of a quote: what the same request would cost fresh, and why this one costs less. */
function followUpQuote(plan: ResearchPlan, followUp: FollowUpOf): NonNullable<ResearchQuote["follow_up"]> {
  const fresh = reservationCredits(plan.mode, plan.request.max_credits);
  const base = followUpBaseCredits(plan.mode);
  const work = followUpWorkCredits(plan.mode);
  const reason =
    base === null || work === null
      ? `A max follow-up of job ${followUp.previousJobId} pays its own metered work, at most max_credits (${fresh}): it starts from that job's evidence, so pages already read cost nothing.`
      : `A follow-up of job ${followUp.previousJobId} starts from its evidence (pages already read are never read again) and pays ${base} credits (a quarter of the ${plan.mode} price of ${fresh}) plus its own metered work, at most ${work} credits: at most ${plan.reservedCredits} credits, against ${fresh} asked fresh.`;
  return { previous_job_id: followUp.previousJobId, thread: followUp.thread, fresh_credits: fresh, base_credits: base, max_work_credits: work, reason };
}

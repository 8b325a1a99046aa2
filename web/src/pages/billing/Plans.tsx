import { api, dataOf, type Schemas } from "../../api/client";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import { credits, usdFromCentsCompact, usdFromMicrosPrecise } from "../../format";
import { PaymentProblem } from "./PaymentProblem";
import { usePlans, useSubscription } from "./queries";
import type { PaymentRedirect } from "./usePaymentRedirect";

/**
 * Monthly plans: price, included credits, overage rate and the usage above which the plan costs
 * less than packs. From Free a plan is subscribed to through checkout; a paid plan is changed or
 * cancelled in the processor's portal (checkout would start a second subscription).
 */
export function Plans({ payments }: { payments: PaymentRedirect }) {
  const plans = usePlans();
  const subscription = useSubscription();
  const current = subscription.data?.plan;
  const onPaidPlan = current !== undefined && current.monthly_price_cents > 0;

  function choose(plan: Schemas["PlanDto"]) {
    const call = onPaidPlan ? () => dataOf(api.POST("/api/billing/portal")) : () => dataOf(api.POST("/api/billing/checkout", { body: { plan_id: plan.id } }));
    payments.start("plans", `plan:${plan.id}`, call);
  }
  function actionLabel(plan: Schemas["PlanDto"]) {
    if (payments.pendingKey === `plan:${plan.id}`) return onPaidPlan ? "Opening the billing portal…" : "Opening checkout…";
    // The plan's name is in the card's heading; screen readers (and tests) get the whole phrase.
    if (!onPaidPlan)
      return (
        <>
          Subscribe<span className="visually-hidden"> to {plan.name}</span>
        </>
      );
    return plan.monthly_price_cents === 0 ? "Cancel in the billing portal" : `Switch to ${plan.name} in the billing portal`;
  }

  return (
    <section aria-labelledby="plans-title">
      <h2 id="plans-title">Monthly plans</h2>
      <p className="muted">Credits every month and a lower price per credit; usage beyond them is billed at the overage rate.</p>
      {plans.isPending && <Loading what="the plans" />}
      <ErrorNotice error={plans.error ?? subscription.error} />
      {plans.data && (
        <ul className="offers">
          {plans.data.map((plan) => {
            const isCurrent = plan.id === current?.id;
            return (
              <li key={plan.id}>
                <article className={isCurrent ? "card offer current" : "card offer"} aria-labelledby={`plan-${plan.id}`}>
                  <div className="offer-head">
                    <h3 id={`plan-${plan.id}`}>{plan.name}</h3>
                    {isCurrent && <p className="badge">Current plan</p>}
                  </div>
                  <p className="price">
                    {usdFromCentsCompact(plan.monthly_price_cents)}
                    <span className="per"> a month</span>
                  </p>
                  <p>
                    <strong>{credits(plan.included_credits)} credits</strong> included each month
                  </p>
                  <p className="muted">
                    {plan.overage_micros > 0
                      ? `Then ${usdFromMicrosPrecise(plan.overage_micros)} per extra credit, billed at the end of the month.`
                      : "No overage: when the credits run out, top up with a pack."}
                  </p>
                  {plan.breakeven_credits > 0 && (
                    <p className="breakeven">Saves money above {credits(plan.breakeven_credits)} credits a month, compared with packs.</p>
                  )}
                  <ul className="features" aria-label={`${plan.name} features`}>
                    {plan.features.map((feature) => (
                      <li key={feature}>{feature}</li>
                    ))}
                  </ul>
                  {isCurrent ? (
                    <p className="muted your-plan">This is your plan.</p>
                  ) : (
                    <button
                      type="button"
                      className={onPaidPlan ? "secondary" : undefined}
                      disabled={!subscription.data || payments.pendingKey !== null}
                      onClick={() => choose(plan)}
                    >
                      {actionLabel(plan)}
                    </button>
                  )}
                </article>
              </li>
            );
          })}
        </ul>
      )}
      <PaymentProblem payments={payments} origin="plans" />
    </section>
  );
}

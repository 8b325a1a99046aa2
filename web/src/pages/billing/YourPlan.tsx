import { api, dataOf } from "../../api/client";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import { credits, dayWithMonthName, usdFromMicrosPrecise } from "../../format";
import { PaymentProblem } from "./PaymentProblem";
import { useBalance, useSubscription } from "./queries";
import type { PaymentRedirect } from "./usePaymentRedirect";

const STATUS_NOTES: Record<string, string> = {
  trialing: "In its trial period.",
  past_due: "The last payment did not go through; the processor is retrying your card. Update it in the billing portal.",
};

/** The account at a glance: balance, current plan (renewal, overage so far) and the processor's portal for cards and invoices. */
export function YourPlan({ payments }: { payments: PaymentRedirect }) {
  const balance = useBalance();
  const subscription = useSubscription();
  const plan = subscription.data?.plan;
  const paid = plan !== undefined && plan.monthly_price_cents > 0;
  const openPortal = () => payments.start("portal", "portal", () => dataOf(api.POST("/api/billing/portal")));

  return (
    <section aria-labelledby="your-plan-title" className="card your-plan">
      <h2 id="your-plan-title">Your account</h2>
      {(balance.isPending || subscription.isPending) && <Loading what="your plan" />}
      <ErrorNotice error={balance.error ?? subscription.error} />
      <dl className="facts">
        {balance.data && (
          <div>
            <dt>Balance</dt>
            <dd>{credits(balance.data.credits)} credits</dd>
          </div>
        )}
        {subscription.data && plan && (
          <div>
            <dt>Plan</dt>
            <dd>{plan.name}</dd>
          </div>
        )}
        {subscription.data?.current_period_end && (
          <div>
            <dt>Renews</dt>
            <dd>{dayWithMonthName(subscription.data.current_period_end)}</dd>
          </div>
        )}
        {subscription.data && paid && (
          <div>
            <dt>Overage this period</dt>
            <dd>
              {credits(subscription.data.overage_credits_this_period)} credits ({usdFromMicrosPrecise(subscription.data.overage_usd_micros_this_period)})
            </dd>
          </div>
        )}
      </dl>
      {subscription.data && STATUS_NOTES[subscription.data.status] && <p>{STATUS_NOTES[subscription.data.status]}</p>}
      <div className="portal">
        <p className="muted">Saved cards, invoices and plan changes are managed in the payment processor's billing portal.</p>
        <button type="button" className="secondary" disabled={payments.pendingKey !== null} onClick={openPortal}>
          {payments.pendingKey === "portal" ? "Opening the billing portal…" : "Open the billing portal"}
        </button>
      </div>
      <PaymentProblem payments={payments} origin="portal" />
    </section>
  );
}

import { useSearchParams } from "react-router-dom";
import { AutoTopup } from "./billing/AutoTopup";
import { Packs } from "./billing/Packs";
import { PaymentHistory } from "./billing/PaymentHistory";
import { Plans } from "./billing/Plans";
import { usePaymentRedirect } from "./billing/usePaymentRedirect";
import { YourPlan } from "./billing/YourPlan";
import "./Billing.css";

/**
 * Billing: the balance and plan, packs and plans bought through the processor's hosted checkout,
 * auto top-up, payment history and the processor's portal. The processor sends the browser back
 * here with ?checkout=success or ?checkout=cancelled.
 */
export function Billing() {
  const payments = usePaymentRedirect();
  const [params] = useSearchParams();
  const checkout = params.get("checkout");

  return (
    <section aria-labelledby="billing-title" className="billing">
      <h1 id="billing-title">Billing</h1>
      {checkout === "success" && (
        <p role="status" className="billing-notice">
          Thank you: your payment is being confirmed. The credits appear in your balance as soon as the payment processor confirms it.
        </p>
      )}
      {checkout === "cancelled" && (
        <p role="status" className="billing-notice">
          The checkout was cancelled: nothing was charged.
        </p>
      )}
      <YourPlan payments={payments} />
      <Packs payments={payments} />
      <Plans payments={payments} />
      <AutoTopup />
      <PaymentHistory pollWhilePending={checkout === "success"} />
    </section>
  );
}

import { ErrorNotice } from "../../components/ErrorNotice";
import { isProcessorMissing, type PaymentOrigin, type PaymentRedirect } from "./usePaymentRedirect";

const UNAVAILABLE: Record<PaymentOrigin, string> = {
  packs: "Payments are not set up on this server yet: no card can be charged, so packs cannot be bought here.",
  plans: "Payments are not set up on this server yet: no card can be charged, so plans cannot be subscribed to here.",
  portal: "Payments are not set up on this server yet, so there is no billing portal to open.",
};

/**
 * What went wrong with the payment started from `origin`, under its buttons. A server without a
 * payment processor is said kindly (it is the operator's setup, not an error of the customer's).
 */
export function PaymentProblem({ payments, origin }: { payments: PaymentRedirect; origin: PaymentOrigin }) {
  const problem = payments.problem;
  if (problem?.origin !== origin) return null;
  if (!isProcessorMissing(problem.error)) return <ErrorNotice error={problem.error} />;
  return (
    <div role="status" className="billing-notice">
      <p>{UNAVAILABLE[origin]}</p>
      <p>Your free credits still work. Nothing was charged.</p>
    </div>
  );
}

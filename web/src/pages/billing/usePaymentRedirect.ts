import { useState } from "react";
import { ApiError } from "../../api/client";

/** Where on the page a payment was started, so its outcome is shown next to the button pressed. */
export type PaymentOrigin = "packs" | "plans" | "portal";

export interface PaymentRedirect {
  /** The button whose request is under way (it stays busy while the browser leaves for the processor). */
  pendingKey: string | null;
  problem: { origin: PaymentOrigin; error: unknown } | null;
  start(origin: PaymentOrigin, key: string, call: () => Promise<{ url: string }>): void;
}

/**
 * Checkout and the portal both answer a processor URL to send the browser to. A failure stays on
 * this page and is remembered with the section it came from.
 */
export function usePaymentRedirect(): PaymentRedirect {
  const [pendingKey, setPendingKey] = useState<string | null>(null);
  const [problem, setProblem] = useState<PaymentRedirect["problem"]>(null);
  return {
    pendingKey,
    problem,
    start(origin, key, call) {
      setPendingKey(key);
      setProblem(null);
      call().then(
        ({ url }) => window.location.assign(url),
        (error: unknown) => {
          setPendingKey(null);
          setProblem({ origin, error });
        },
      );
    },
  };
}

/** The server has no payment processor (or no price for this item): not a fault of the person paying. */
export function isProcessorMissing(error: unknown): boolean {
  return error instanceof ApiError && error.code === "payment_processor_not_configured";
}

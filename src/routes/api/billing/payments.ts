import { createRoute, z } from "@hono/zod-openapi";
import { accountLimitNote, withLimitState } from "../../../http/account-limit-docs";
import { peek, pageWithLink } from "../../../http/next-page";
import { createRouter, errorResponses, JWT_SECURITY, jsonBody, jsonResponse, pageResponse } from "../../../http/openapi";
import { PagingQuery } from "../../../lib/paging";
import { limitPerAccount } from "../../../middleware/account-rate-limit";
import { createCheckout, createPortal } from "../../../services/billing/checkout";
import { paymentDto, paymentHistory } from "../../../services/billing/payments";
import { checkoutBodyExample, checkoutUrlExample, paymentRowExample, portalUrlExample } from "./examples";
import { CheckoutBody, CheckoutResponse, PaymentRowDto } from "./schemas";

/** Paying: a checkout for a pack or a plan, the processor's portal, the payment history. */
export const billingPaymentRoutes = createRouter();
const tags = ["Billing"];

billingPaymentRoutes.openapi(
  createRoute({
    method: "post",
    path: "/checkout",
    operationId: "createCheckout",
    tags,
    summary: "Start a checkout",
    description:
      "Opens a payment at the processor for a pack (one-off) or a plan (subscription) and answers the page to send the customer to. The credits arrive when the processor confirms the payment (a pending payment shows in the payment history until then). Buying a pack saves the card for auto top-up. An unknown pack or plan is 400; a server without a payment processor answers 500 `payment_processor_not_configured`, a refusal by the processor 502." +
      accountLimitNote("account:payments", "checkouts and portal sessions together"),
    security: JWT_SECURITY,
    // Each call is a request to the processor, whose own rate limit every account shares.
    middleware: [limitPerAccount("account:payments", "Too many payment sessions for this account; retry later.")] as const,
    request: { body: jsonBody(CheckoutBody, checkoutBodyExample) },
    responses: {
      200: withLimitState(jsonResponse(CheckoutResponse, "The hosted checkout URL", checkoutUrlExample)),
      ...errorResponses("invalid_request", "unauthorized", "payment_processor_not_configured", "payment_processor_error", "rate_limited"),
    },
  }),
  async (c) => {
    const body = c.req.valid("json");
    const item = "pack_id" in body ? { packId: body.pack_id } : { planId: body.plan_id };
    return c.json(await createCheckout(c.get("deps"), c.get("user"), item), 200);
  },
);

billingPaymentRoutes.openapi(
  createRoute({
    method: "post",
    path: "/portal",
    operationId: "createPortalSession",
    tags,
    summary: "Open the customer portal",
    description:
      "Answers a link to the payment processor's portal, where the customer manages cards, downloads invoices and changes or cancels the plan. 400 before the first purchase (there is no billing account yet); 500 `payment_processor_not_configured` on a server without a payment processor." +
      accountLimitNote("account:payments", "checkouts and portal sessions together"),
    security: JWT_SECURITY,
    middleware: [limitPerAccount("account:payments", "Too many payment sessions for this account; retry later.")] as const,
    responses: {
      200: withLimitState(jsonResponse(CheckoutResponse, "The portal URL", portalUrlExample)),
      ...errorResponses("invalid_request", "unauthorized", "payment_processor_not_configured", "payment_processor_error", "rate_limited"),
    },
  }),
  async (c) => c.json(await createPortal(c.get("deps"), c.get("user")), 200),
);

billingPaymentRoutes.openapi(
  createRoute({
    method: "get",
    path: "/payment-history",
    operationId: "listPayments",
    tags,
    summary: "List your payments",
    description:
      "Every payment of the account, newest first: packs, plan checkouts, monthly plan invoices and auto top-ups, with their status. Page with `limit` and `offset`.",
    security: JWT_SECURITY,
    request: { query: PagingQuery },
    responses: {
      200: pageResponse(z.array(PaymentRowDto), "Payments, newest first", [paymentRowExample]),
      ...errorResponses("invalid_request", "unauthorized"),
    },
  }),
  async (c) => {
    const page = c.req.valid("query");
    return c.json(pageWithLink(c, await paymentHistory(c.get("deps").db, c.get("user").id, peek(page)), page).map(paymentDto), 200);
  },
);

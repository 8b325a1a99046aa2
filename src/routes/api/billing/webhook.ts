import { createRoute, z } from "@hono/zod-openapi";
import { createRouter, errorResponses, jsonResponse, NO_SECURITY } from "../../../http/openapi";
import { ApiError } from "../../../lib/errors";
import { receiveProcessorEvent } from "../../../services/billing/events";
import { WebhookReceipt } from "./schemas";

/** The payment processor's events, posted by the processor itself. */
export const billingWebhookRoutes = createRouter();
const tags = ["Billing"];

billingWebhookRoutes.openapi(
  createRoute({
    method: "post",
    path: "/webhook",
    operationId: "receiveProcessorEvent",
    tags,
    security: NO_SECURITY,
    summary: "Receive a payment processor event",
    description:
      "For the payment processor, not for clients: it posts its events (payments completed, invoices paid, subscriptions changed, refunds) here, signed with `Stripe-Signature`. Each event is stored before it is applied, and applying is idempotent, so a redelivery never credits twice. A bad signature is 400; so is an event of another Stripe API version than the one this server reads (stored as `unsupported`, not applied: the endpoint's version must be set to it); an event that could not be applied is 500. Stripe delivers an event again after any answer but a 2xx.",
    request: {
      headers: z.object({
        "stripe-signature": z.string().optional().openapi({
          description: "The processor's signature of the raw body (`t=<unix seconds>,v1=<hex HMAC-SHA256>`), checked with the webhook secret within 300 s.",
          example: "t=1795456789,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd",
        }),
      }),
    },
    responses: {
      200: jsonResponse(WebhookReceipt, "Stored and applied (or ignored)", { received: true, status: "processed" }),
      ...errorResponses("invalid_request", "payment_processor_not_configured", "internal"),
    },
  }),
  async (c) => {
    const outcome = await receiveProcessorEvent(c.get("deps"), await c.req.text(), c.req.header("Stripe-Signature"));
    // A failure is stored with the event; 500 asks the processor to deliver it again later.
    if (outcome.status === "failed") throw new ApiError("internal", `The event was stored but could not be applied: ${outcome.note}`);
    return c.json({ received: true as const, status: outcome.status }, 200);
  },
);

import { createRoute } from "@hono/zod-openapi";
import { createRouter, errorResponses, JWT_SECURITY, jsonBody, jsonResponse, noBody } from "../../../http/openapi";
import { autoTopupStatus, saveAutoTopup } from "../../../services/billing/auto-topup";
import { subscriptionSummary } from "../../../services/billing/subscriptions";
import { autoTopupBodyExample, autoTopupSettingsExample, subscriptionExample } from "./examples";
import { AutoTopupBody, AutoTopupSettings, SubscriptionDto } from "./schemas";

/** The account's standing with billing: its auto top-up and its subscription. */
export const billingAccountRoutes = createRouter();
const tags = ["Billing"];

billingAccountRoutes.openapi(
  createRoute({
    method: "put",
    path: "/auto-topup",
    operationId: "updateAutoTopup",
    tags,
    summary: "Configure auto top-up",
    description:
      "Turns auto top-up on or off: after a job reserves credits and leaves the balance below `threshold_credits`, the chosen pack is bought with the card saved at the last pack purchase, one payment at a time. An unknown pack is 400.",
    security: JWT_SECURITY,
    request: { body: jsonBody(AutoTopupBody, autoTopupBodyExample) },
    responses: { 200: noBody("Saved"), ...errorResponses("invalid_request", "unauthorized") },
  }),
  async (c) => {
    const body = c.req.valid("json");
    await saveAutoTopup(c.get("deps"), c.get("user").id, { enabled: body.enabled, thresholdCredits: body.threshold_credits, packId: body.pack_id });
    return c.body(null, 200);
  },
);

billingAccountRoutes.openapi(
  createRoute({
    method: "get",
    path: "/auto-topup",
    operationId: "getAutoTopup",
    tags,
    summary: "Get your auto top-up settings",
    description:
      "The auto top-up settings, whether a top-up payment is under way, and whether there is a card to charge (`card_on_file`: not before your first purchase). Never configured: disabled, threshold 0, pack `starter`.",
    security: JWT_SECURITY,
    responses: {
      200: jsonResponse(AutoTopupSettings, "Settings (disabled when never set)", autoTopupSettingsExample),
      ...errorResponses("unauthorized"),
    },
  }),
  async (c) => c.json(await autoTopupStatus(c.get("deps"), c.get("user")), 200),
);

billingAccountRoutes.openapi(
  createRoute({
    method: "get",
    path: "/subscription",
    operationId: "getSubscription",
    tags,
    summary: "Get your subscription",
    description: "The account's plan (Free without a subscription), when its period renews, and the overage used in this period with what it will cost.",
    security: JWT_SECURITY,
    responses: {
      200: jsonResponse(SubscriptionDto, "The current plan", subscriptionExample),
      ...errorResponses("unauthorized"),
    },
  }),
  async (c) => c.json(await subscriptionSummary(c.get("deps").db, c.get("user").id), 200),
);

import { createRouter } from "../../../http/openapi";
import { billingAccountRoutes } from "./account";
import { billingCatalogRoutes } from "./catalog";
import { billingPaymentRoutes } from "./payments";
import { billingWebhookRoutes } from "./webhook";

/**
 * /api/billing: the catalog (packs, plans, operation prices, modes), payments (checkout, portal,
 * history), the account's auto top-up and subscription, and the processor's webhook. Schemas in
 * `schemas.ts`, the reference's examples in `examples.ts`; the logic is in services/billing/.
 * Mounted in this order, which is the reference's order of the operations.
 */
export const billingRoutes = createRouter();
billingRoutes.route("/", billingCatalogRoutes);
billingRoutes.route("/", billingPaymentRoutes);
billingRoutes.route("/", billingAccountRoutes);
billingRoutes.route("/", billingWebhookRoutes);

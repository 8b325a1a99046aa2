import { createRoute, z } from "@hono/zod-openapi";
import { createRouter, errorResponses, JWT_SECURITY, jsonResponse, NO_SECURITY } from "../../../http/openapi";
import { modePrices, OP_PRICES } from "../../../research/service";
import { listPacks, listPlans, packDto, planDto } from "../../../services/billing/catalog";
import { developerPlanExample, freePlanExample, packsExample } from "./examples";
import { ModePriceDto, OpPriceDto, PackDto, PlanDto } from "./schemas";

/** What is on sale and what it costs: packs, plans, operation prices, research modes. */
export const billingCatalogRoutes = createRouter();
const tags = ["Billing"];

/** The metered operation prices as GET /op-prices answers them. */
const opPriceList = () => OP_PRICES.map(({ op, credits, note }) => ({ op, credits, note }));

billingCatalogRoutes.openapi(
  createRoute({
    method: "get",
    path: "/packs",
    operationId: "listPacks",
    tags,
    summary: "List the credit packs",
    description: "The packs on sale, smallest first: credits bought once, at 1 cent a credit, that never expire. Buy one with `POST /api/billing/checkout`.",
    security: JWT_SECURITY,
    responses: { 200: jsonResponse(z.array(PackDto), "Packs, smallest first", packsExample), ...errorResponses("unauthorized") },
  }),
  async (c) => c.json((await listPacks(c.get("deps").db)).map(packDto), 200),
);

billingCatalogRoutes.openapi(
  createRoute({
    method: "get",
    path: "/plans",
    operationId: "listPlans",
    tags,
    security: NO_SECURITY,
    summary: "List the monthly plans",
    description:
      "The subscription plans, Free first: credits every month, and on paid plans overage instead of a 402 when the balance runs out. `breakeven_credits` says from what monthly usage a plan costs less than packs. Public: no credentials.",
    responses: { 200: jsonResponse(z.array(PlanDto), "Plans, Free first", [freePlanExample, developerPlanExample]) },
  }),
  async (c) => c.json((await listPlans(c.get("deps").db)).map(planDto), 200),
);

billingCatalogRoutes.openapi(
  createRoute({
    method: "get",
    path: "/op-prices",
    operationId: "listOpPrices",
    tags,
    security: NO_SECURITY,
    summary: "List the operation prices",
    description:
      "The price list every job is metered with: a job's `cost_usd` is the sum of its searches, page reads and model tokens at these prices, and `max` mode charges it (rounded up to whole credits). Adding documents to a collection is priced here too (`ingest_mb`). Public: no credentials.",
    responses: {
      // The example is the price list itself, so the reference cannot quote a price that changed.
      200: jsonResponse(z.array(OpPriceDto), "Operation prices", opPriceList()),
    },
  }),
  (c) => c.json(opPriceList(), 200),
);

billingCatalogRoutes.openapi(
  createRoute({
    method: "get",
    path: "/modes",
    operationId: "listModes",
    tags,
    security: NO_SECURITY,
    summary: "List the research modes",
    description:
      "The research modes, cheapest first: what each costs and how much it may search, read and take. A research request picks one with `mode`. Public: no credentials.",
    responses: {
      // The example is the answer itself, from the one table of modes (research/pricing/modes.ts).
      200: jsonResponse(z.array(ModePriceDto), "Modes, cheapest first", modePrices()),
    },
  }),
  (c) => c.json(modePrices(), 200),
);

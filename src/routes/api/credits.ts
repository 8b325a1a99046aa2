import { createRoute } from "@hono/zod-openapi";
import { createRouter, errorResponses, JWT_SECURITY, jsonResponse } from "../../http/openapi";
import { balanceDto } from "../../services/ledger";
import { BalanceDto } from "../account-schemas";

export const creditRoutes = createRouter();

creditRoutes.openapi(
  createRoute({
    method: "get",
    path: "/balance",
    operationId: "getCreditBalance",
    tags: ["Credits"],
    summary: "Get your credit balance (dashboard)",
    description:
      "The account's balance, in credits and in USD, for the dashboard: the same figures as `GET /v1/credits`, authenticated with an access token. Free.",
    security: JWT_SECURITY,
    responses: { 200: jsonResponse(BalanceDto, "The balance", { credits: 425, usd: "4.25" }), ...errorResponses("unauthorized", "account_suspended") },
  }),
  // The auth middleware just read the user row, balance included.
  (c) => c.json(balanceDto(c.var.user.credits), 200),
);

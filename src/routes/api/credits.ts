import { createRoute } from "@hono/zod-openapi";
import { createRouter, errorResponses, JWT_SECURITY, jsonResponse } from "../../http/openapi";
import { balanceDto, getBalance } from "../../services/ledger";
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
  // Read now, never from the caller's identity (which an isolate may hold for a few seconds).
  async (c) => c.json(balanceDto(await getBalance(c.get("deps").db, c.get("user").id)), 200),
);

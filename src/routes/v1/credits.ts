import { createRoute } from "@hono/zod-openapi";
import { API_KEY_SECURITY, createRouter, errorResponses, jsonResponse } from "../../http/openapi";
import { balanceDto } from "../../services/ledger";
import { BalanceDto } from "../account-schemas";

export const v1CreditRoutes = createRouter();

v1CreditRoutes.openapi(
  createRoute({
    method: "get",
    path: "/credits",
    tags: ["Public API"],
    summary: "Your credit balance",
    security: API_KEY_SECURITY,
    responses: { 200: jsonResponse(BalanceDto, "The balance"), ...errorResponses("unauthorized", "account_suspended", "rate_limited") },
  }),
  // The API-key middleware read the owner's row, balance included, in the same query.
  (c) => c.json(balanceDto(c.var.user.credits), 200),
);

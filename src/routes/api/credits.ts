import { createRoute } from "@hono/zod-openapi";
import { createRouter, errorResponses, JWT_SECURITY, jsonResponse } from "../../http/openapi";
import { jwtAuth } from "../../middleware/jwt-auth";
import { balanceDto } from "../../services/ledger";
import { BalanceDto } from "../account-schemas";

export const creditRoutes = createRouter();
creditRoutes.use("*", jwtAuth);

creditRoutes.openapi(
  createRoute({
    method: "get",
    path: "/balance",
    tags: ["Credits"],
    summary: "Your credit balance",
    security: JWT_SECURITY,
    responses: { 200: jsonResponse(BalanceDto, "The balance"), ...errorResponses("unauthorized", "account_suspended") },
  }),
  // The auth middleware just read the user row, balance included.
  (c) => c.json(balanceDto(c.var.user.credits), 200),
);

import { createRoute } from "@hono/zod-openapi";
import { API_KEY_SECURITY, createRouter, errorResponses, jsonResponse } from "../../http/openapi";
import { balanceDto, getBalance } from "../../services/ledger";
import { BalanceDto } from "../account-schemas";

export const v1CreditRoutes = createRouter();

v1CreditRoutes.openapi(
  createRoute({
    method: "get",
    path: "/credits",
    operationId: "getCredits",
    tags: ["Credits"],
    summary: "Get your credit balance",
    description:
      "The account's balance, in credits and in USD (1 credit = 0.01 USD). Credits reserved by running jobs are already deducted. Check it before a batch of research to avoid 402 `insufficient_credits`. Free.",
    security: API_KEY_SECURITY,
    responses: {
      200: jsonResponse(BalanceDto, "The balance", { credits: 425, usd: "4.25" }),
      ...errorResponses("unauthorized", "account_suspended", "rate_limited"),
    },
  }),
  // Read now, never from the caller's identity (which an isolate may hold for a few seconds).
  async (c) => c.json(balanceDto(await getBalance(c.get("deps").db, c.get("user").id)), 200),
);

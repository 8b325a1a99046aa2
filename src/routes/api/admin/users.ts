import { createRoute, z } from "@hono/zod-openapi";
import { createRouter, IdParam, JWT_SECURITY, jsonBody, jsonResponse, noBody } from "../../../http/openapi";
import { PagingQuery } from "../../../lib/paging";
import { adminGuard } from "../../../middleware/admin-guard";
import { adjustCredits, listUsers, setSuspended, userDetail, userJobs, userLedger } from "../../../admin/users";
import {
  AdminLedgerRow,
  AdminUserDetail,
  AdminUserJobRow,
  AdminUserRow,
  adminErrors,
  CreditAdjustBody,
  CreditAdjustResponse,
  queryString,
  withPaging,
} from "./admin-schemas";

const tags = ["Admin"];
export const adminUserRoutes = createRouter();
adminUserRoutes.use("*", adminGuard);

adminUserRoutes.openapi(
  createRoute({
    method: "get",
    path: "/",
    tags,
    summary: "List users (newest first); q matches an email substring, or a full user id",
    security: JWT_SECURITY,
    request: { query: withPaging({ q: queryString("q") }) },
    responses: { 200: jsonResponse(z.array(AdminUserRow), "Users"), ...adminErrors() },
  }),
  async (c) => {
    const { q, ...page } = c.req.valid("query");
    return c.json(await listUsers(c.var.deps.db, q, page), 200);
  },
);

adminUserRoutes.openapi(
  createRoute({
    method: "get",
    path: "/{id}",
    tags,
    summary: "One user with job and ticket counts",
    security: JWT_SECURITY,
    request: { params: IdParam },
    responses: { 200: jsonResponse(AdminUserDetail, "The user"), ...adminErrors("not_found") },
  }),
  async (c) => c.json(await userDetail(c.var.deps.db, c.req.valid("param").id), 200),
);

adminUserRoutes.openapi(
  createRoute({
    method: "post",
    path: "/{id}/credits",
    tags,
    summary: "Add or remove credits (an admin_adjustment ledger entry)",
    description:
      "delta_credits is a non-zero integer with |delta| <= 1,000,000 and never takes the balance below zero. " +
      "With idempotency_key a resubmit answers the first balance_after and applies nothing; the same key with another body is 422.",
    security: JWT_SECURITY,
    request: { params: IdParam, body: jsonBody(CreditAdjustBody) },
    responses: { 200: jsonResponse(CreditAdjustResponse, "Applied (or already applied)"), ...adminErrors("not_found", "idempotency_key_reused") },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const result = await adjustCredits(c.var.deps.db, c.var.user, id, { delta: body.delta_credits, note: body.note, idempotencyKey: body.idempotency_key });
    return c.json({ balance_after: result.balanceAfter }, 200);
  },
);

adminUserRoutes.openapi(
  createRoute({
    method: "get",
    path: "/{id}/jobs",
    tags,
    summary: "A user's research jobs (newest first)",
    security: JWT_SECURITY,
    request: { params: IdParam, query: PagingQuery },
    responses: { 200: jsonResponse(z.array(AdminUserJobRow), "Jobs"), ...adminErrors("not_found") },
  }),
  async (c) => c.json(await userJobs(c.var.deps.db, c.req.valid("param").id, c.req.valid("query")), 200),
);

adminUserRoutes.openapi(
  createRoute({
    method: "get",
    path: "/{id}/ledger",
    tags,
    summary: "A user's ledger entries (newest first)",
    security: JWT_SECURITY,
    request: { params: IdParam, query: PagingQuery },
    responses: { 200: jsonResponse(z.array(AdminLedgerRow), "Ledger entries"), ...adminErrors("not_found") },
  }),
  async (c) => c.json(await userLedger(c.var.deps.db, c.req.valid("param").id, c.req.valid("query")), 200),
);

for (const suspend of [true, false]) {
  adminUserRoutes.openapi(
    createRoute({
      method: "post",
      path: suspend ? "/{id}/suspend" : "/{id}/unsuspend",
      tags,
      summary: suspend
        ? "Suspend a user (login and every JWT or API-key call answer 403 account_suspended; running jobs finish)"
        : "Lift a suspension",
      security: JWT_SECURITY,
      request: { params: IdParam },
      responses: { 200: noBody(suspend ? "Suspended" : "Unsuspended"), ...adminErrors("not_found") },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      await setSuspended(c.var.deps.db, c.var.user, id, suspend);
      return c.body(null, 200);
    },
  );
}

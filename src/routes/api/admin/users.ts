import { peek, pageWithLink } from "../../../http/next-page";
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter, IdParam, JWT_SECURITY, jsonBody, jsonResponse, noBody, pageResponse } from "../../../http/openapi";
import { PagingQuery } from "../../../lib/paging";
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
import { adminLedgerExample, adminJobRowExample, adminUserDetailExample, adminUserRowExample } from "./admin-examples";

const tags = ["Admin"];
export const adminUserRoutes = createRouter();

adminUserRoutes.openapi(
  createRoute({
    method: "get",
    path: "/",
    operationId: "adminListUsers",
    tags,
    summary: "List users",
    description: "Every account, newest first, with its balance and whether it is suspended. `q` searches; page with `limit` and `offset`.",
    security: JWT_SECURITY,
    request: {
      query: withPaging({ q: queryString("q", "A full user id (exact match), or any part of an email address (case-insensitive; `%` and `_` are literal).") }),
    },
    responses: { 200: pageResponse(z.array(AdminUserRow), "Users, newest first", [adminUserRowExample]), ...adminErrors() },
  }),
  async (c) => {
    const { q, ...page } = c.req.valid("query");
    return c.json(pageWithLink(c, await listUsers(c.get("deps").db, q, peek(page)), page), 200);
  },
);

adminUserRoutes.openapi(
  createRoute({
    method: "get",
    path: "/{id}",
    operationId: "adminGetUser",
    tags,
    summary: "Get a user",
    description: "A user's account with their job count, open tickets, payment processor customer and collection storage against their plan's quota.",
    security: JWT_SECURITY,
    request: { params: IdParam },
    responses: { 200: jsonResponse(AdminUserDetail, "The user", adminUserDetailExample), ...adminErrors("not_found") },
  }),
  async (c) => c.json(await userDetail(c.get("deps").db, c.req.valid("param").id), 200),
);

adminUserRoutes.openapi(
  createRoute({
    method: "post",
    path: "/{id}/credits",
    operationId: "adminAdjustCredits",
    tags,
    summary: "Adjust a user's credits",
    description:
      "Adds or removes credits as an `admin_adjustment` ledger entry, with the note. " +
      "delta_credits is a non-zero integer with |delta| <= 1,000,000 and never takes the balance below zero (400 naming the balance). " +
      "With idempotency_key a resubmit answers the first balance_after and applies nothing; the same key with another body is 422.",
    security: JWT_SECURITY,
    request: {
      params: IdParam,
      body: jsonBody(CreditAdjustBody, { delta_credits: 100, note: "Goodwill credit for ticket 9953e98a", idempotency_key: "ticket-9953-goodwill" }),
    },
    responses: {
      200: jsonResponse(CreditAdjustResponse, "Applied (or already applied)", { balance_after: 2525 }),
      ...adminErrors("not_found", "idempotency_key_reused"),
    },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const result = await adjustCredits(c.get("deps").db, c.get("user"), id, {
      delta: body.delta_credits,
      note: body.note,
      idempotencyKey: body.idempotency_key,
    });
    return c.json({ balance_after: result.balanceAfter }, 200);
  },
);

adminUserRoutes.openapi(
  createRoute({
    method: "get",
    path: "/{id}/jobs",
    operationId: "adminListUserJobs",
    tags,
    summary: "List a user's jobs",
    description: "One user's jobs (API and playground), newest first; page with `limit` and `offset`. An unknown user is 404, not an empty list.",
    security: JWT_SECURITY,
    request: { params: IdParam, query: PagingQuery },
    responses: {
      200: pageResponse(z.array(AdminUserJobRow), "Jobs, newest first", [(({ user_id: _user, user_email: _email, ...job }) => job)(adminJobRowExample)]),
      ...adminErrors("not_found"),
    },
  }),
  async (c) => {
    const page = c.req.valid("query");
    return c.json(pageWithLink(c, await userJobs(c.get("deps").db, c.req.valid("param").id, peek(page)), page), 200);
  },
);

adminUserRoutes.openapi(
  createRoute({
    method: "get",
    path: "/{id}/ledger",
    operationId: "adminListUserLedger",
    tags,
    summary: "List a user's ledger",
    description:
      "Every change of one user's balance, newest first: sign-up bonus, purchases, plan grants, reservations and releases of jobs, refunds, adjustments, overage and ingest charges, each with the balance after it. Page with `limit` and `offset`. An unknown user is 404.",
    security: JWT_SECURITY,
    request: { params: IdParam, query: PagingQuery },
    responses: { 200: pageResponse(z.array(AdminLedgerRow), "Ledger entries, newest first", adminLedgerExample), ...adminErrors("not_found") },
  }),
  async (c) => {
    const page = c.req.valid("query");
    return c.json(pageWithLink(c, await userLedger(c.get("deps").db, c.req.valid("param").id, peek(page)), page), 200);
  },
);

for (const suspend of [true, false]) {
  adminUserRoutes.openapi(
    createRoute({
      method: "post",
      path: suspend ? "/{id}/suspend" : "/{id}/unsuspend",
      operationId: suspend ? "adminSuspendUser" : "adminUnsuspendUser",
      tags,
      description: suspend
        ? "Suspends an account: its login and every call with its access tokens or API keys answer 403 `account_suspended`; jobs already running finish. Suspending again keeps the first time. Admins cannot suspend their own account (400)."
        : "Lifts a suspension: the account signs in and calls the API again. Harmless on an account that is not suspended.",
      summary: suspend ? "Suspend a user" : "Lift a suspension",
      security: JWT_SECURITY,
      request: { params: IdParam },
      responses: { 200: noBody(suspend ? "Suspended" : "Unsuspended"), ...adminErrors("not_found") },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      await setSuspended(c.get("deps").db, c.get("user"), id, suspend);
      return c.body(null, 200);
    },
  );
}

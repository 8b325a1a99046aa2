import { createRoute, z } from "@hono/zod-openapi";
import { JOB_STATUSES } from "../../../db/schema";
import { createRouter, IdParam, JWT_SECURITY, jsonBody, jsonResponse, noBody } from "../../../http/openapi";
import { adminGuard } from "../../../middleware/admin-guard";
import { jobDetail, listJobs, refundJob } from "../../../admin/jobs";
import { AdminJobDetail, AdminJobRow, adminErrors, enumFilter, queryString, RefundBody, withPaging } from "./admin-schemas";

const tags = ["Admin"];
export const adminJobRoutes = createRouter();
adminJobRoutes.use("*", adminGuard);

adminJobRoutes.openapi(
  createRoute({
    method: "get",
    path: "/",
    tags,
    summary: "List research jobs of every user (newest first)",
    security: JWT_SECURITY,
    request: { query: withPaging({ user_email: queryString("user_email"), status: enumFilter("status", JOB_STATUSES) }) },
    responses: { 200: jsonResponse(z.array(AdminJobRow), "Jobs"), ...adminErrors() },
  }),
  async (c) => {
    const { user_email, status, ...page } = c.req.valid("query");
    return c.json(await listJobs(c.var.deps.db, { userEmail: user_email, status }, page), 200);
  },
);

adminJobRoutes.openapi(
  createRoute({
    method: "get",
    path: "/{id}",
    tags,
    summary: "One job with its raw request and response",
    security: JWT_SECURITY,
    request: { params: IdParam },
    responses: { 200: jsonResponse(AdminJobDetail, "The job"), ...adminErrors("not_found") },
  }),
  async (c) => c.json(await jobDetail(c.var.deps.db, c.req.valid("param").id), 200),
);

adminJobRoutes.openapi(
  createRoute({
    method: "post",
    path: "/{id}/refund",
    tags,
    summary: "Refund credits of a finished job to its owner (a refund ledger entry)",
    description:
      "credits must be positive and at most what the job charged minus what was already refunded, also under concurrent requests. " +
      "With idempotency_key a resubmit applies nothing.",
    security: JWT_SECURITY,
    request: { params: IdParam, body: jsonBody(RefundBody) },
    responses: { 200: noBody("Refund applied"), ...adminErrors("not_found", "idempotency_key_reused") },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    await refundJob(c.var.deps.db, c.var.user, id, { credits: body.credits, note: body.note, idempotencyKey: body.idempotency_key });
    return c.body(null, 200);
  },
);

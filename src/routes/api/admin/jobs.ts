import { peek, pageWithLink } from "../../../http/next-page";
import { createRoute, z } from "@hono/zod-openapi";
import { JOB_STATUSES } from "../../../db/schema";
import { createRouter, IdParam, JWT_SECURITY, jsonBody, jsonResponse, noBody, pageResponse } from "../../../http/openapi";
import { jobDetail, listJobs, refundJob } from "../../../admin/jobs";
import { AdminJobDetail, AdminJobRow, adminErrors, enumFilter, queryString, RefundBody, withPaging } from "./admin-schemas";
import { adminJobDetailExample, adminJobRowExample } from "./admin-examples";

const tags = ["Admin"];
export const adminJobRoutes = createRouter();

adminJobRoutes.openapi(
  createRoute({
    method: "get",
    path: "/",
    operationId: "adminListJobs",
    tags,
    summary: "List all research jobs",
    description:
      "Research jobs of all users (API and playground), newest first, with their owner. Filter by `user_email` and `status`; page with `limit` and `offset`.",
    security: JWT_SECURITY,
    request: {
      query: withPaging({
        user_email: queryString("user_email", "Only jobs of the user with this email (exact, case-insensitive)."),
        status: enumFilter("status", JOB_STATUSES, "Only jobs in this status."),
      }),
    },
    responses: { 200: pageResponse(z.array(AdminJobRow), "Jobs, newest first", [adminJobRowExample]), ...adminErrors() },
  }),
  async (c) => {
    const { user_email, status, ...page } = c.req.valid("query");
    return c.json(pageWithLink(c, await listJobs(c.get("deps").db, { userEmail: user_email, status }, peek(page)), page), 200);
  },
);

adminJobRoutes.openapi(
  createRoute({
    method: "get",
    path: "/{id}",
    operationId: "adminGetJob",
    tags,
    summary: "Get any research job",
    description: "Any user's job with what it reserved and charged, the body that was posted and the final response (null until the job ends).",
    security: JWT_SECURITY,
    request: { params: IdParam },
    responses: { 200: jsonResponse(AdminJobDetail, "The job", adminJobDetailExample), ...adminErrors("not_found") },
  }),
  async (c) => c.json(await jobDetail(c.get("deps").db, c.req.valid("param").id), 200),
);

adminJobRoutes.openapi(
  createRoute({
    method: "post",
    path: "/{id}/refund",
    operationId: "adminRefundJob",
    tags,
    summary: "Refund a job",
    description:
      "Gives credits of a finished job back to its owner, as a `refund` ledger entry with the note. " +
      "credits must be positive and at most what the job charged minus what was already refunded, also under concurrent requests. " +
      "With idempotency_key a resubmit applies nothing.",
    security: JWT_SECURITY,
    request: {
      params: IdParam,
      body: jsonBody(RefundBody, { credits: 15, note: "The brief missed the 1890 address; refunded per ticket 9953e98a", idempotency_key: "refund-9953-1" }),
    },
    responses: { 200: noBody("Refund applied"), ...adminErrors("not_found", "idempotency_key_reused") },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    await refundJob(c.get("deps").db, c.get("user"), id, { credits: body.credits, note: body.note, idempotencyKey: body.idempotency_key });
    return c.body(null, 200);
  },
);

import { createRoute, z } from "@hono/zod-openapi";
import { pageWithLink, peek } from "../../../http/next-page";
import { createRouter, JWT_SECURITY, pageResponse } from "../../../http/openapi";
import { listOverageReports, OVERAGE_REPORT_STATUSES } from "../../../services/billing/overage-reports";
import { adminOverageReportsExample } from "./admin-examples";
import { adminErrors, enumFilter, withPaging } from "./admin-schemas";
import { AdminOverageReportRow } from "./admin-ops-schemas";

export const adminOverageReportRoutes = createRouter();

adminOverageReportRoutes.openapi(
  createRoute({
    method: "get",
    path: "/",
    operationId: "adminListOverageReports",
    tags: ["Admin"],
    summary: "List plan overage reports to the payment processor",
    description:
      "The overage of paid plans as reported to the processor's billing meter, newest first. Without `status`, every report not yet billed: `pending`, `failed` (the cron sweep sends it again with the same identifier), `skipped` (never sent: no processor configured, or the user had no Stripe customer; not retried, `error` says which: bill it by hand) and `abandoned` (given up past Stripe's window: bill it by hand). Page with `limit` and `offset`.",
    security: JWT_SECURITY,
    request: {
      query: withPaging({ status: enumFilter("status", OVERAGE_REPORT_STATUSES, "Only reports in this state (`reported` included).") }),
    },
    responses: { 200: pageResponse(z.array(AdminOverageReportRow), "Reports, newest first", adminOverageReportsExample), ...adminErrors() },
  }),
  async (c) => {
    const { status, ...page } = c.req.valid("query");
    const rows = pageWithLink(c, await listOverageReports(c.get("deps"), peek(page), status), page);
    return c.json(
      rows.map(({ report: r, email }) => ({
        id: r.id,
        user_id: r.userId,
        user_email: email,
        credits: r.credits,
        status: r.status as (typeof OVERAGE_REPORT_STATUSES)[number],
        attempts: r.attempts,
        in_doubt: r.inDoubt,
        error: r.error,
        created_at: r.createdAt,
        next_attempt_at: r.nextAttemptAt,
        reported_at: r.reportedAt,
      })),
      200,
    );
  },
);

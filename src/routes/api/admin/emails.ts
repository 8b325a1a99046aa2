import { peek, pageWithLink } from "../../../http/next-page";
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter, JWT_SECURITY, pageResponse } from "../../../http/openapi";
import { listOutbox } from "../../../admin/emails";
import { adminErrors, queryString, withPaging } from "./admin-schemas";
import { AdminEmailRow } from "./admin-ops-schemas";
import { adminEmailsExample } from "./admin-examples";

export const adminEmailRoutes = createRouter();

adminEmailRoutes.openapi(
  createRoute({
    method: "get",
    path: "/",
    operationId: "adminListEmails",
    tags: ["Admin"],
    summary: "List sent emails",
    description:
      "Every email the service sent (verification links, reset links, ticket confirmations and replies), newest first, with its text and how its delivery went (status, attempts, last error, next retry). Without an email provider configured, this is where they go. Page with `limit` and `offset`.",
    security: JWT_SECURITY,
    request: { query: withPaging({ to: queryString("to", "Only emails to this address (exact, case-insensitive).") }) },
    responses: { 200: pageResponse(z.array(AdminEmailRow), "Emails, newest first", adminEmailsExample), ...adminErrors() },
  }),
  async (c) => {
    const { to, ...page } = c.req.valid("query");
    return c.json(pageWithLink(c, await listOutbox(c.get("deps").db, to, peek(page)), page), 200);
  },
);

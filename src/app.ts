import { OpenAPIHono } from "@hono/zod-openapi";
import { cors } from "hono/cors";
import { HTTPException } from "hono/http-exception";
import { requestId } from "hono/request-id";
import type { AppEnv } from "./http/context";
import { ConfigError, loadConfig } from "./env";
import { ApiError } from "./lib/errors";
import { attachCodeSamples } from "./http/code-samples";
import { createRouter, documentImpliedResponses } from "./http/openapi";
import { registerWebhookReference } from "./routes/webhook-reference";
import { documentForSurface, isSurface, SURFACES } from "./http/reference-surfaces";
import { adminGuard } from "./middleware/admin-guard";
import { apiKeyAuth } from "./middleware/api-key-auth";
import { dashboardAuth } from "./middleware/dashboard-auth";
import { services } from "./middleware/services";
import { adminAuditRoutes } from "./routes/api/admin/audit";
import { corpusRoutes } from "./routes/api/admin/corpus";
import { adminEmailRoutes } from "./routes/api/admin/emails";
import { adminJobRoutes } from "./routes/api/admin/jobs";
import { adminOverageReportRoutes } from "./routes/api/admin/overage-reports";
import { adminProcessorEventRoutes } from "./routes/api/admin/processor-events";
import { adminStatsRoutes } from "./routes/api/admin/stats";
import { adminTicketRoutes } from "./routes/api/admin/tickets";
import { adminUserRoutes } from "./routes/api/admin/users";
import { authRoutes } from "./routes/api/auth";
import { billingRoutes } from "./routes/api/billing";
import { creditRoutes } from "./routes/api/credits";
import { keyRoutes } from "./routes/api/keys";
import { settingsRoutes } from "./routes/api/settings";
import { supportRoutes } from "./routes/api/support";
import { systemRoutes } from "./routes/system";
import { v1CreditRoutes } from "./routes/v1/credits";
import { v1ResearchRoutes } from "./routes/v1/research";
import { v1CollectionRoutes } from "./routes/v1/collections";
import { dashboardMonitorRoutes, v1MonitorRoutes } from "./routes/v1/monitors";
import { collectionRoutes } from "./routes/api/collections";
import { playgroundRoutes } from "./routes/api/playground";
import { dashboardRoutes } from "./routes/api/dashboard";
import { searchSourceRoutes } from "./routes/api/search-source";
import { mcpRoutes } from "./routes/mcp/route";
import { oauthApiRoutes } from "./routes/mcp/oauth-api";
import { oauthRoutes } from "./routes/mcp/oauth-routes";
import { REFERENCE_TAGS, referenceDescription } from "./routes/reference";

export const API_VERSION = "0.1.0";

/** Turns any thrown value into the one error body; nothing else ever reaches the client. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPException) {
    // Hono's body validators: malformed JSON (400), wrong or missing content type (415).
    if (error.status === 400 || error.status === 415) {
      const message = error.status === 415 ? "Content-Type must be application/json." : error.message || "Invalid request.";
      return ApiError.invalid(message);
    }
    if (error.status === 401) return ApiError.unauthorized();
    if (error.status === 404) return ApiError.notFound();
  }
  if (error instanceof ConfigError) {
    console.error(error.message);
    return new ApiError("internal", `The service is misconfigured: ${error.problems.join("; ")}.`);
  }
  console.error("unhandled error", error);
  return new ApiError("internal", "Internal error.");
}

export function buildApp() {
  const app = new OpenAPIHono<AppEnv>();

  app.use("*", requestId({ headerName: "X-Request-Id" }));
  app.use(
    "/api/*",
    cors({
      origin: (origin, c) => (origin === loadConfig(c.env).DASHBOARD_URL ? origin : null),
      allowHeaders: ["Authorization", "Content-Type", "Idempotency-Key"],
      allowMethods: ["GET", "POST", "PUT", "DELETE", "OPTIONS"],
      exposeHeaders: ["X-Request-Id", "Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Link"],
      maxAge: 600,
      credentials: false,
    }),
  );
  app.use("*", services);
  // Auth, each mounted once: every /api/admin path gets the admin guard (JWT, then admin); every
  // other /api route the JWT unless its operation declares itself public (security: []).
  app.use("/api/admin/*", adminGuard);
  app.use("/api/*", dashboardAuth(app));

  app.route("/", systemRoutes);
  app.route("/api/auth", authRoutes);
  app.route("/api/admin/corpus", corpusRoutes);
  app.route("/api/admin/users", adminUserRoutes);
  app.route("/api/admin/jobs", adminJobRoutes);
  app.route("/api/admin/tickets", adminTicketRoutes);
  app.route("/api/admin/stats", adminStatsRoutes);
  app.route("/api/admin/processor-events", adminProcessorEventRoutes);
  app.route("/api/admin/overage-reports", adminOverageReportRoutes);
  app.route("/api/admin/emails", adminEmailRoutes);
  app.route("/api/admin/audit", adminAuditRoutes);
  app.route("/api/keys", keyRoutes);
  app.route("/api/settings", settingsRoutes);
  app.route("/api/support", supportRoutes);
  app.route("/api/credits", creditRoutes);
  app.route("/api/billing", billingRoutes);
  app.route("/api/playground", playgroundRoutes);
  app.route("/api", collectionRoutes);
  app.route("/api", dashboardMonitorRoutes);
  app.route("/api", dashboardRoutes);
  app.route("/api", searchSourceRoutes);
  app.route("/api/oauth", oauthApiRoutes);

  const v1 = createRouter();
  v1.use("*", apiKeyAuth);
  v1.route("/", v1CreditRoutes);
  v1.route("/", v1ResearchRoutes);
  v1.route("/", v1CollectionRoutes);
  v1.route("/", v1MonitorRoutes);
  app.route("/v1", v1);
  // The same API, as MCP tools for AI agents (API key, like /v1, or an OAuth access token), at
  // /mcp and /mcp/; and MCP's OAuth endpoints (/oauth/*, the two /.well-known metadata documents).
  app.route("/", mcpRoutes(API_VERSION));
  app.route("/", oauthRoutes);

  app.openAPIRegistry.registerComponent("securitySchemes", "apiKey", {
    type: "http",
    scheme: "bearer",
    description:
      "An API key (`dr_live_` and 32 letters and digits) made in the dashboard (API keys), for `/v1`: `Authorization: Bearer dr_live_...`. Keep it secret: it spends your credits.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "jwt", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      "An access token (a JWT valid 15 minutes) from sign-up, login or refresh, for `/api`: `Authorization: Bearer <access_token>`. Refresh it with the refresh token before it expires.",
  });
  registerWebhookReference(app);
  app.get("/openapi.json", (c) => {
    const document = app.getOpenAPI31Document({
      openapi: "3.1.0",
      info: {
        title: "Deep Research API",
        version: API_VERSION,
        description: referenceDescription(API_VERSION),
        // The service is not open source; saying so is the honest licence entry (SPDX has no id
        // for "all rights reserved", so it is a LicenseRef, as SPDX prescribes for such licences).
        // (`identifier` is OpenAPI 3.1; the generator's config type is 3.0's, hence the widening.)
        license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" } as { name: string },
      },
      servers: [{ url: new URL(c.req.url).origin, description: "This server" }],
      tags: REFERENCE_TAGS.map((tag) => ({ ...tag })),
    });
    documentImpliedResponses(document.paths as Parameters<typeof documentImpliedResponses>[0]);
    attachCodeSamples(document.paths as Parameters<typeof attachCodeSamples>[0]);
    // ?surface=public|dashboard: the part one reference page shows (http/reference-surfaces.ts).
    const surface = c.req.query("surface");
    if (surface === undefined) return c.json(document);
    if (!isSurface(surface)) throw ApiError.invalid(`surface must be one of ${SURFACES.join(", ")}`);
    return c.json(documentForSurface(document, surface));
  });

  app.notFound((c) => {
    const error = new ApiError("not_found", `No route for ${c.req.method} ${new URL(c.req.url).pathname}.`);
    return c.json(error.toBody(), error.status);
  });
  app.onError((thrown, c) => {
    const error = toApiError(thrown);
    for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
    return c.json(error.toBody(), error.status);
  });
  return app;
}

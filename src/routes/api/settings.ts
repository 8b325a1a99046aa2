import { createRoute, z } from "@hono/zod-openapi";
import { createRouter, errorResponses, JWT_SECURITY, jsonBody, jsonResponse, noBody } from "../../http/openapi";
import { rotateWebhookSecret, webhookSecret } from "../../webhooks/secrets";
import { jwtAuth } from "../../middleware/jwt-auth";
import { changePassword, setMarketingEmails, updateProfile } from "../../services/accounts";
import { MarketingBody, PasswordBody, ProfileBody } from "../account-schemas";

const tags = ["Settings"];
export const settingsRoutes = createRouter();
settingsRoutes.use("*", jwtAuth);

settingsRoutes.openapi(
  createRoute({
    method: "put",
    path: "/password",
    tags,
    summary: "Change your password (ends your other sessions)",
    security: JWT_SECURITY,
    request: { body: jsonBody(PasswordBody) },
    responses: {
      200: noBody("Password changed"),
      ...errorResponses("invalid_request", "unauthorized", "invalid_credentials"),
    },
  }),
  async (c) => {
    const body = c.req.valid("json");
    await changePassword(c.var.deps.db, c.var.user, c.var.sessionId, body.current_password, body.new_password);
    return c.body(null, 200);
  },
);

settingsRoutes.openapi(
  createRoute({
    method: "put",
    path: "/profile",
    tags,
    summary: "Update your name",
    security: JWT_SECURITY,
    request: { body: jsonBody(ProfileBody) },
    responses: { 200: noBody("Saved"), ...errorResponses("invalid_request", "unauthorized") },
  }),
  async (c) => {
    const body = c.req.valid("json");
    await updateProfile(c.var.deps.db, c.var.user.id, body.first_name, body.last_name);
    return c.body(null, 200);
  },
);

settingsRoutes.openapi(
  createRoute({
    method: "put",
    path: "/marketing",
    tags,
    summary: "Opt in or out of marketing emails",
    security: JWT_SECURITY,
    request: { body: jsonBody(MarketingBody) },
    responses: { 200: noBody("Saved"), ...errorResponses("invalid_request", "unauthorized") },
  }),
  async (c) => {
    await setMarketingEmails(c.var.deps.db, c.var.user.id, c.req.valid("json").enabled);
    return c.body(null, 200);
  },
);

const WebhookSecretDto = z.object({ secret: z.string().openapi({ example: "whsec_..." }) }).openapi("WebhookSecret");

settingsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/webhook-secret",
    tags,
    summary: "The secret that signs your webhooks (X-Service-Signature)",
    security: JWT_SECURITY,
    responses: { 200: jsonResponse(WebhookSecretDto, "The secret"), ...errorResponses("unauthorized") },
  }),
  async (c) => c.json({ secret: await webhookSecret(c.var.deps.db, c.var.user.id) }, 200),
);

settingsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/webhook-secret/rotate",
    tags,
    summary: "Replace the webhook signing secret (deliveries from now on use the new one)",
    security: JWT_SECURITY,
    responses: { 200: jsonResponse(WebhookSecretDto, "The new secret"), ...errorResponses("unauthorized") },
  }),
  async (c) => c.json({ secret: await rotateWebhookSecret(c.var.deps.db, c.var.user.id) }, 200),
);

import { createRoute, z } from "@hono/zod-openapi";
import { accountLimitNote, withLimitState } from "../../http/account-limit-docs";
import { limitPerAccount } from "../../middleware/account-rate-limit";
import { createRouter, errorResponses, JWT_SECURITY, jsonBody, jsonResponse, noBody } from "../../http/openapi";
import { rotateWebhookSecret, webhookSecret } from "../../webhooks/secrets";
import { changePassword, setMarketingEmails, updateProfile } from "../../services/accounts";
import { addWebhookTestRoute } from "../webhook-routes";
import { MarketingBody, PasswordBody, ProfileBody } from "../account-schemas";

const tags = ["Settings"];
export const settingsRoutes = createRouter();

settingsRoutes.openapi(
  createRoute({
    method: "put",
    path: "/password",
    operationId: "changePassword",
    tags,
    summary: "Change your password",
    description:
      "Replaces the password, given the current one (401 `invalid_credentials` if it is wrong). Every other session ends; this one goes on. An account without a password is 400: use the password reset." +
      accountLimitNote("account:password", "attempts"),
    security: JWT_SECURITY,
    // Each attempt hashes a password (CPU we pay for), and a stolen access token must not guess the current one freely.
    middleware: [limitPerAccount("account:password", "Too many password changes for this account; retry later.")] as const,
    request: { body: jsonBody(PasswordBody, { current_password: "correct horse battery", new_password: "a longer correct horse battery" }) },
    responses: {
      200: withLimitState(noBody("Password changed")),
      ...errorResponses("invalid_request", "unauthorized", "invalid_credentials", "rate_limited"),
    },
  }),
  async (c) => {
    const body = c.req.valid("json");
    await changePassword(c.get("deps").db, c.get("user"), c.get("sessionId"), body.current_password, body.new_password);
    return c.body(null, 200);
  },
);

settingsRoutes.openapi(
  createRoute({
    method: "put",
    path: "/profile",
    operationId: "updateProfile",
    tags,
    summary: "Update your name",
    description: "Sets the first and last name shown in the dashboard and in emails. Both fields are required; an empty string clears one.",
    security: JWT_SECURITY,
    request: { body: jsonBody(ProfileBody, { first_name: "Ada", last_name: "King" }) },
    responses: { 200: noBody("Saved"), ...errorResponses("invalid_request", "unauthorized") },
  }),
  async (c) => {
    const body = c.req.valid("json");
    await updateProfile(c.get("deps").db, c.get("user").id, body.first_name, body.last_name);
    return c.body(null, 200);
  },
);

settingsRoutes.openapi(
  createRoute({
    method: "put",
    path: "/marketing",
    operationId: "setMarketingEmails",
    tags,
    summary: "Set your marketing email preference",
    description: "Turns marketing emails on or off. Emails about the account itself (verification, password reset, ticket replies) are sent either way.",
    security: JWT_SECURITY,
    request: { body: jsonBody(MarketingBody, { enabled: true }) },
    responses: { 200: noBody("Saved"), ...errorResponses("invalid_request", "unauthorized") },
  }),
  async (c) => {
    await setMarketingEmails(c.get("deps").db, c.get("user").id, c.req.valid("json").enabled);
    return c.body(null, 200);
  },
);

const WebhookSecretDto = z
  .object({
    secret: z.string().openapi({
      description: "The signing secret (`whsec_...`): the HMAC-SHA256 key of `X-Service-Signature`.",
      example: "whsec_7oksS5fXxWBHdhmWDfcdave8pjQ1hs1rBY1mR176L6U",
    }),
  })
  .openapi("WebhookSecret", { description: "The account's webhook signing secret." });
const webhookSecretExample = { secret: "whsec_7oksS5fXxWBHdhmWDfcdave8pjQ1hs1rBY1mR176L6U" };

settingsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/webhook-secret",
    operationId: "getWebhookSecret",
    tags,
    summary: "Get the webhook signing secret",
    description:
      "The key your webhook receiver checks deliveries with: `X-Service-Signature` is `sha256=` and the hex HMAC-SHA256 of the raw request body under this secret. Compare in constant time. Made on first use; the same until rotated.",
    security: JWT_SECURITY,
    responses: { 200: jsonResponse(WebhookSecretDto, "The secret", webhookSecretExample), ...errorResponses("unauthorized") },
  }),
  async (c) => c.json({ secret: await webhookSecret(c.get("deps").db, c.get("user").id) }, 200),
);

settingsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/webhook-secret/rotate",
    operationId: "rotateWebhookSecret",
    tags,
    summary: "Rotate the webhook signing secret",
    description:
      "Replaces the signing secret, e.g. after a leak. Deliveries signed from now on (retries included) use the new one; update your receiver at the same time.",
    security: JWT_SECURITY,
    responses: {
      200: jsonResponse(WebhookSecretDto, "The new secret", { secret: "whsec_K2pWq9vTz4mYb7nXc1rLs8dJf3hGa6uEo5iRt0yUw2Q" }),
      ...errorResponses("unauthorized"),
    },
  }),
  async (c) => c.json({ secret: await rotateWebhookSecret(c.get("deps").db, c.get("user").id) }, 200),
);

addWebhookTestRoute(settingsRoutes, {
  path: "/webhook-test",
  operationId: "sendDashboardWebhookTest",
  tags,
  security: JWT_SECURITY,
  note: " The dashboard's Settings page (*Send a test event*); the same as `POST /v1/webhooks/test`.",
});

import { createRoute, z } from "@hono/zod-openapi";
import { clientIp } from "../../http/client-ip";
import { enforceRateLimit, rateLimitByIp } from "../../middleware/rate-limit";
import { rateLimitCounter } from "../../rate-limit/rules";
import { jwtAuth } from "../../middleware/jwt-auth";
import { createRouter, errorResponses, JWT_SECURITY, jsonBody, jsonResponse, noBody } from "../../http/openapi";
import { login, requestPasswordReset, resetPassword, signup, userDto, verifyEmail } from "../../services/accounts";
import { endSession, refreshSession } from "../../services/sessions";
import { AuthResponse, ForgotBody, LoginBody, RefreshBody, ResetBody, SignupBody, UserDto } from "../account-schemas";
import { sha256Hex } from "../../lib/crypto";
import { ACCESS_TOKEN_TTL_MS } from "../../services/access-tokens";

const tags = ["Accounts"];
export const authRoutes = createRouter();

const authResponse = (result: Awaited<ReturnType<typeof login>>) => ({
  access_token: result.accessToken,
  expires_in: ACCESS_TOKEN_TTL_MS / 1000,
  refresh_token: result.refreshToken,
  user: userDto(result.user),
});

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/signup",
    tags,
    summary: "Create an account (starts with 500 free credits)",
    middleware: [rateLimitByIp("signup:ip")] as const,
    request: { body: jsonBody(SignupBody) },
    responses: {
      200: jsonResponse(AuthResponse, "Account created and signed in"),
      ...errorResponses("invalid_request", "email_taken", "rate_limited"),
    },
  }),
  async (c) => {
    const body = c.req.valid("json");
    await enforceRateLimit(c, "signup:email", body.email.trim());
    const result = await signup(c.var.deps, { email: body.email, password: body.password, firstName: body.first_name, lastName: body.last_name });
    return c.json(authResponse(result), 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/login",
    tags,
    summary: "Sign in with email and password",
    middleware: [rateLimitByIp("login:ip")] as const,
    request: { body: jsonBody(LoginBody) },
    responses: {
      200: jsonResponse(AuthResponse, "Signed in"),
      ...errorResponses("invalid_request", "invalid_credentials", "account_suspended", "rate_limited"),
    },
  }),
  async (c) => {
    const body = c.req.valid("json");
    const email = body.email.trim();
    const client = `${clientIp(c)} ${email}`;
    // Counted before the password is checked (so parallel guesses count too), taken back on success.
    await enforceRateLimit(c, "login:ip-email", client, "Too many failed sign-ins from this client; retry later or reset the password.");
    await enforceRateLimit(c, "login:email", email, "Too many failed sign-ins for this account; retry later or reset the password.");
    const result = await login(c.var.deps, body.email, body.password);
    await Promise.all([
      (await rateLimitCounter(c.var.deps.env, "login:ip-email", client)).clear(),
      (await rateLimitCounter(c.var.deps.env, "login:email", email)).forgive(),
    ]);
    return c.json(authResponse(result), 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/refresh",
    tags,
    summary: "Exchange a refresh token for a new session pair (the old token is spent)",
    request: { body: jsonBody(RefreshBody) },
    responses: {
      200: jsonResponse(AuthResponse, "New tokens"),
      ...errorResponses("invalid_request", "unauthorized", "account_suspended"),
    },
  }),
  async (c) => {
    const result = await refreshSession(c.var.deps.db, c.var.deps.config, c.req.valid("json").refresh_token);
    return c.json(authResponse(result), 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/logout",
    tags,
    summary: "End the session a refresh token belongs to",
    request: { body: jsonBody(RefreshBody) },
    responses: { 200: noBody("Session ended (also when the token was unknown)"), ...errorResponses("invalid_request") },
  }),
  async (c) => {
    await endSession(c.var.deps.db, c.req.valid("json").refresh_token);
    return c.body(null, 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: "get",
    path: "/me",
    tags,
    summary: "The signed-in user",
    security: JWT_SECURITY,
    middleware: [jwtAuth] as const,
    responses: { 200: jsonResponse(UserDto, "The user"), ...errorResponses("unauthorized", "account_suspended") },
  }),
  (c) => c.json(userDto(c.var.user), 200),
);

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/forgot-password",
    tags,
    summary: "Email a password-reset link (always 200, whether or not the account exists)",
    middleware: [rateLimitByIp("forgot:ip")] as const,
    request: { body: jsonBody(ForgotBody) },
    responses: { 200: noBody("Accepted"), ...errorResponses("invalid_request", "rate_limited") },
  }),
  async (c) => {
    const { email } = c.req.valid("json");
    await enforceRateLimit(c, "forgot:email", email.trim());
    // The lookup and email happen after the response, so its timing says nothing about the account.
    c.var.deps.defer(requestPasswordReset(c.var.deps, email).catch((error: unknown) => console.error("password reset email failed", error)));
    return c.body(null, 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/reset-password",
    tags,
    summary: "Set a new password with the token from a reset email",
    middleware: [rateLimitByIp("reset:ip")] as const,
    request: { body: jsonBody(ResetBody) },
    responses: { 200: noBody("Password changed; every session ended"), ...errorResponses("invalid_request", "rate_limited") },
  }),
  async (c) => {
    const { token, password } = c.req.valid("json");
    await enforceRateLimit(c, "reset:token", await sha256Hex(token));
    await resetPassword(c.var.deps, token, password);
    return c.body(null, 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: "get",
    path: "/verify-email",
    tags,
    summary: "Confirm an email address from the emailed link, then redirect to the dashboard",
    request: { query: z.object({ token: z.string().min(1).max(512).openapi({ param: { name: "token", in: "query" } }) }) },
    responses: { 302: noBody("Verified; redirect to the dashboard"), ...errorResponses("invalid_request") },
  }),
  async (c) => {
    await verifyEmail(c.var.deps.db, c.req.valid("query").token);
    return c.redirect(`${c.var.deps.dashboardUrl}/?email_verified=1`, 302);
  },
);

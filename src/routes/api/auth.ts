import { createRoute, z } from "@hono/zod-openapi";
import { clientIp } from "../../http/client-ip";
import { enforceRateLimit, rateLimitByIp } from "../../middleware/rate-limit";
import { rateLimitCounter } from "../../rate-limit/rules";
import { createRouter, errorResponses, JWT_SECURITY, jsonBody, jsonResponse, NO_SECURITY, noBody } from "../../http/openapi";
import { login, requestPasswordReset, resetPassword, signup, userDto, verifyEmail } from "../../services/accounts";
import { requireLinkOrigin } from "../../services/link-origin";
import { endSession, refreshSession } from "../../services/sessions";
import { AuthResponse, ForgotBody, LoginBody, RefreshBody, ResetBody, SignupBody, UserDto } from "../account-schemas";
import { sha256Hex } from "../../lib/crypto";
import { ACCESS_TOKEN_TTL_MS } from "../../services/access-tokens";
import { authResponseExample, userExample } from "../account-examples";

const refreshExample = { refresh_token: authResponseExample.refresh_token };

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
    operationId: "signup",
    tags,
    security: NO_SECURITY,
    summary: "Sign up",
    description:
      "Creates an account on the Free plan with 500 credits, signs it in (the answer is a session) and emails a link to verify the address; until it is verified, research may spend only part of those credits (100 by default; beyond: 403 `email_not_verified`). 409 `email_taken` if the email is registered. 400 `invalid_request` when the request's host is not one email links are built for (no `DASHBOARD_URL` and neither loopback nor in `LINK_HOSTS`): nothing is created or mailed. Limited per client and per email (429).",
    middleware: [rateLimitByIp("signup:ip")] as const,
    request: { body: jsonBody(SignupBody, { email: "ada@example.com", password: "correct horse battery", first_name: "Ada", last_name: "Lovelace" }) },
    responses: {
      200: jsonResponse(AuthResponse, "Account created and signed in", authResponseExample),
      ...errorResponses("invalid_request", "email_taken", "rate_limited"),
    },
  }),
  async (c) => {
    const body = c.req.valid("json");
    await enforceRateLimit(c, "signup:email", body.email.trim());
    const result = await signup(c.get("deps"), { email: body.email, password: body.password, firstName: body.first_name, lastName: body.last_name });
    return c.json(authResponse(result), 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/login",
    operationId: "login",
    tags,
    security: NO_SECURITY,
    summary: "Log in",
    description:
      "Starts a session: a 15-minute access token for the dashboard API and a refresh token to renew it. A wrong email or password is 401 `invalid_credentials` (the two are not told apart); a suspended account is 403 `account_suspended`. Failed attempts are limited per client and per account (429 with `Retry-After`).",
    middleware: [rateLimitByIp("login:ip")] as const,
    request: { body: jsonBody(LoginBody, { email: "ada@example.com", password: "correct horse battery" }) },
    responses: {
      200: jsonResponse(AuthResponse, "Signed in", { ...authResponseExample, user: { ...userExample, email_verified: true } }),
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
    const result = await login(c.get("deps"), body.email, body.password);
    await Promise.all([
      (await rateLimitCounter(c.get("deps").env, "login:ip-email", client)).clear(),
      (await rateLimitCounter(c.get("deps").env, "login:email", email)).forgive(),
    ]);
    return c.json(authResponse(result), 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/refresh",
    operationId: "refreshSession",
    tags,
    security: NO_SECURITY,
    summary: "Refresh a session",
    description:
      "Renews a session before its access token expires: answers a new access token and a new refresh token; the one sent is spent. An unknown, expired or spent token is 401 `unauthorized`, and presenting a spent token again ends that whole session (a stolen token cannot be used twice). Send refreshes one at a time.",
    request: { body: jsonBody(RefreshBody, refreshExample) },
    responses: {
      200: jsonResponse(AuthResponse, "New tokens", { ...authResponseExample, refresh_token: "rt_Qm3vX8cLr0aT1yEwZp5nK2dH7uJ4sF6gB9iO_N-VxYc" }),
      ...errorResponses("invalid_request", "unauthorized", "account_suspended"),
    },
  }),
  async (c) => {
    const result = await refreshSession(c.get("deps").db, c.get("deps").config, c.req.valid("json").refresh_token);
    return c.json(authResponse(result), 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/logout",
    operationId: "logout",
    tags,
    security: NO_SECURITY,
    summary: "Log out",
    description: "Ends the session: its refresh token and every access token issued in it stop working at once. Always 200, also for an unknown token.",
    request: { body: jsonBody(RefreshBody, refreshExample) },
    responses: { 200: noBody("Session ended (also when the token was unknown)"), ...errorResponses("invalid_request") },
  }),
  async (c) => {
    await endSession(c.get("deps").db, c.req.valid("json").refresh_token);
    return c.body(null, 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: "get",
    path: "/me",
    operationId: "getCurrentUser",
    tags,
    summary: "Get the signed-in user",
    description: "The account the access token belongs to: name, email, whether it is verified, email preferences and whether the user is an admin.",
    security: JWT_SECURITY,
    responses: { 200: jsonResponse(UserDto, "The user", userExample), ...errorResponses("unauthorized", "account_suspended") },
  }),
  (c) => c.json(userDto(c.get("user")), 200),
);

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/forgot-password",
    operationId: "forgotPassword",
    tags,
    security: NO_SECURITY,
    summary: "Request a password reset",
    description:
      "Emails a link to reset the password, valid 1 hour, if an account has this email. The answer is the same 200, as fast, whether or not it exists, so it reveals nothing. 400 `invalid_request`, for any email, when the request's host is not one email links are built for (no `DASHBOARD_URL` and neither loopback nor in `LINK_HOSTS`). Limited per client and per email (429).",
    middleware: [rateLimitByIp("forgot:ip")] as const,
    request: { body: jsonBody(ForgotBody, { email: "ada@example.com" }) },
    responses: { 200: noBody("Accepted"), ...errorResponses("invalid_request", "rate_limited") },
  }),
  async (c) => {
    const { email } = c.req.valid("json");
    await enforceRateLimit(c, "forgot:email", email.trim());
    // Refused before the deferred work when no link can be built for this host (it says nothing about the account).
    requireLinkOrigin(c.get("deps").dashboardUrl);
    // The lookup and email happen after the response, so its timing says nothing about the account.
    c.get("deps").defer(requestPasswordReset(c.get("deps"), email).catch((error: unknown) => console.error("password reset email failed", error)));
    return c.body(null, 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/reset-password",
    operationId: "resetPassword",
    tags,
    security: NO_SECURITY,
    summary: "Reset the password",
    description:
      "Sets a new password with the token of a reset link. Every session of the account ends, and the email counts as verified (the link proved the inbox). An invalid, expired or used token is 400 `invalid_request`.",
    middleware: [rateLimitByIp("reset:ip")] as const,
    request: { body: jsonBody(ResetBody, { token: "wcvkwB5K0Hc9M-x6jz-jsOO0iudmQNAf2A6p9prhLmI", password: "a new correct horse" }) },
    responses: { 200: noBody("Password changed; every session ended"), ...errorResponses("invalid_request", "rate_limited") },
  }),
  async (c) => {
    const { token, password } = c.req.valid("json");
    await enforceRateLimit(c, "reset:token", await sha256Hex(token));
    await resetPassword(c.get("deps"), token, password);
    return c.body(null, 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: "get",
    path: "/verify-email",
    operationId: "verifyEmail",
    tags,
    security: NO_SECURITY,
    summary: "Verify an email address",
    description:
      "The target of the verification link emailed at sign-up: marks the address verified and redirects (302) to the dashboard. An invalid, expired (after 48 hours) or used token is 400 `invalid_request`.",
    request: {
      query: z.object({
        token: z
          .string()
          .min(1)
          .max(512)
          .openapi({
            param: { name: "token", in: "query" },
            description: "The token of the emailed link (valid 48 hours, single use).",
            example: "ygTo-7F_wTIsMq-5HQBKB4lAXE0PTVenu6z94jwXQ2o",
          }),
      }),
    },
    responses: { 302: noBody("Verified; redirect to the dashboard"), ...errorResponses("invalid_request") },
  }),
  async (c) => {
    await verifyEmail(c.get("deps").db, c.req.valid("query").token);
    // Without a link origin (a Host not allowed to carry links) the dashboard is this origin's: a relative redirect.
    return c.redirect(`${c.get("deps").dashboardUrl ?? ""}/?email_verified=1`, 302);
  },
);

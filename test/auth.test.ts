import { env } from "cloudflare:workers";
import { createRoute } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { buildApp } from "../src/app";
import { createDb } from "../src/db/client";
import { loadConfig } from "../src/env";
import { requestPasswordReset } from "../src/services/accounts";
import type { EmailMessage } from "../src/services/email";
import {
  adminUser,
  call,
  dbAll,
  dbFirst,
  dbRun,
  expectError,
  expectLedgerConsistent,
  json,
  latestEmail,
  login,
  me,
  refresh,
  signupUser,
  suspendUser,
  tokenFromLink,
  uniqueEmail,
  UUID_PATTERN,
} from "./helpers";

const DASHBOARD_URL = "https://dashboard.example.test";
const PASSWORD = "correct horse battery";
const USER_DTO_KEYS = ["email", "email_verified", "first_name", "id", "is_admin", "last_name", "marketing_emails_enabled"];
const VERIFY_LINK = new RegExp(`${DASHBOARD_URL.replaceAll(".", "\\.")}/verify-email\\?token=(\\S+)`);
const RESET_LINK = new RegExp(`${DASHBOARD_URL.replaceAll(".", "\\.")}/reset-password\\?token=(\\S+)`);

function signup(body: unknown, ip?: string) {
  return call("/api/auth/signup", { body, ip });
}

async function verificationToken(email: string): Promise<string> {
  const mail = await latestEmail(email, "Confirm your email");
  expect(mail).toBeDefined();
  return tokenFromLink(mail!.text, VERIFY_LINK);
}

async function requestReset(email: string): Promise<string> {
  const response = await call("/api/auth/forgot-password", { body: { email } });
  expect(response.status).toBe(200);
  const mail = await latestEmail(email.trim().toLowerCase(), "Reset your password");
  expect(mail).toBeDefined();
  return tokenFromLink(mail!.text, RESET_LINK);
}

function resetPassword(token: string, password: string) {
  return call("/api/auth/reset-password", { body: { token, password } });
}

function verifyEmail(token: string) {
  return call(`/api/auth/verify-email?token=${encodeURIComponent(token)}`);
}

describe("POST /api/auth/signup", () => {
  it("answers 200 with an AuthResponse whose user is exactly a UserDto", async () => {
    const email = uniqueEmail("signup");
    const response = await signup({ email, password: PASSWORD, first_name: "Ada", last_name: "Lovelace" });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(Object.keys(body).sort()).toEqual(["access_token", "expires_in", "refresh_token", "user"]);
    expect(body.access_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    // The lifetime a client needs to refresh in time, and the token's own exp agrees with it.
    expect(body.expires_in).toBe(900);
    const claims = JSON.parse(atob(body.access_token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
    expect(claims.exp - claims.iat).toBe(900);
    expect(body.refresh_token).toEqual(expect.any(String));
    expect(Object.keys(body.user).sort()).toEqual(USER_DTO_KEYS);
    expect(body.user).toEqual({
      id: expect.stringMatching(UUID_PATTERN),
      email,
      first_name: "Ada",
      last_name: "Lovelace",
      email_verified: false,
      marketing_emails_enabled: false,
      is_admin: false,
    });
  });

  it("accepts missing or null names as empty strings and stores the email normalised", async () => {
    const email = uniqueEmail("Names");
    const withoutNames = await json(await signup({ email: `  ${email.toUpperCase()} `, password: PASSWORD }));
    expect(withoutNames.user).toMatchObject({ email: email.toLowerCase(), first_name: "", last_name: "" });
    const withNulls = await json(await signup({ email: uniqueEmail(), password: PASSWORD, first_name: null, last_name: null }));
    expect(withNulls.user).toMatchObject({ first_name: "", last_name: "" });
  });

  it("signs the new user in: the access token works on /me and the refresh token refreshes", async () => {
    const user = await signupUser();
    const meResponse = await me(user.accessToken);
    expect(meResponse.status).toBe(200);
    expect((await json(meResponse)).id).toBe(user.id);
    expect((await refresh(user.refreshToken)).status).toBe(200);
  });

  it.each([
    ["not an email", "nope"],
    ["empty", ""],
    ["missing @ domain", "ada@"],
    ["a number", 42],
  ])("rejects an invalid email (%s) with 400 invalid_request", async (_label, email) => {
    await expectError(await signup({ email, password: PASSWORD }), 400, "invalid_request");
  });

  it("rejects a missing email or password with 400", async () => {
    await expectError(await signup({ password: PASSWORD }), 400, "invalid_request");
    await expectError(await signup({ email: uniqueEmail() }), 400, "invalid_request");
  });

  it("rejects passwords shorter than 8 or longer than 128 characters, and writes nothing", async () => {
    const email = uniqueEmail("shortpw");
    await expectError(await signup({ email, password: "1234567" }), 400, "invalid_request");
    await expectError(await signup({ email, password: "x".repeat(129) }), 400, "invalid_request");
    expect(await dbFirst("select id from users where email = ?", email)).toBeNull();
  });

  it("accepts passwords of exactly 8 and exactly 128 characters", async () => {
    expect((await signup({ email: uniqueEmail(), password: "12345678" })).status).toBe(200);
    expect((await signup({ email: uniqueEmail(), password: "y".repeat(128) })).status).toBe(200);
  });

  it("rejects an over-long first name with 400", async () => {
    await expectError(await signup({ email: uniqueEmail(), password: PASSWORD, first_name: "a".repeat(101) }), 400, "invalid_request");
  });

  it("answers 409 email_taken for an email already registered, whatever its case or surrounding whitespace", async () => {
    const user = await signupUser();
    await expectError(await signup({ email: user.email, password: PASSWORD }), 409, "email_taken");
    await expectError(await signup({ email: user.email.toUpperCase(), password: PASSWORD }), 409, "email_taken");
    await expectError(await signup({ email: `  ${user.email.toUpperCase()}\t`, password: PASSWORD }), 409, "email_taken");
    const rows = await dbAll("select id from users where email = ?", user.email);
    expect(rows).toHaveLength(1);
  });

  it("lets exactly one of several concurrent signups for one email through; the others are 409", async () => {
    const email = uniqueEmail("race");
    const responses = await Promise.all([0, 1, 2].map(() => signup({ email, password: PASSWORD })));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    for (const response of responses.filter((r) => r.status === 409)) await expectError(response, 409, "email_taken");
    const rows = await dbAll<{ id: string }>("select id from users where email = ?", email);
    expect(rows).toHaveLength(1);
    expect(await expectLedgerConsistent(rows[0]!.id)).toBe(500);
  });

  it("gives a new account 500 free credits as one signup_bonus ledger entry", async () => {
    const user = await signupUser();
    const entries = await dbAll<{ kind: string; delta: number; balance_after: number }>(
      "select kind, delta, balance_after from ledger_entries where user_id = ?",
      user.id,
    );
    expect(entries).toEqual([{ kind: "signup_bonus", delta: 500, balance_after: 500 }]);
    expect(await expectLedgerConsistent(user.id)).toBe(500);
    const balance = await call("/api/credits/balance", { token: user.accessToken });
    expect(await json(balance)).toEqual({ credits: 500, usd: "5.00" });
  });

  it("mails a verification link to the dashboard's verify-email page", async () => {
    const user = await signupUser();
    const mail = await latestEmail(user.email, "Confirm your email");
    expect(mail).toBeDefined();
    expect(mail!.text).toMatch(VERIFY_LINK);
  });
});

describe("GET /api/auth/verify-email", () => {
  it("verifies the email from the signup link and redirects 302 to the dashboard", async () => {
    const user = await signupUser();
    const mail = await latestEmail(user.email, "Confirm your email");
    const link = new URL(VERIFY_LINK.exec(mail!.text)![0]);
    const response = await call(`/api/auth/verify-email${link.search}`); // what the dashboard page calls
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(new RegExp(`^${DASHBOARD_URL.replaceAll(".", "\\.")}(/|$)`));
    expect((await json(await me(user.accessToken))).email_verified).toBe(true);
  });

  it("answers 400 for an unknown token", async () => {
    await expectError(await verifyEmail("not-a-real-token"), 400, "invalid_request");
  });

  it("answers 400 without a token", async () => {
    await expectError(await call("/api/auth/verify-email"), 400, "invalid_request");
  });

  it("answers 400 for a token already used", async () => {
    const user = await signupUser();
    const token = await verificationToken(user.email);
    expect((await verifyEmail(token)).status).toBe(302);
    await expectError(await verifyEmail(token), 400, "invalid_request");
  });

  it("answers 400 for an expired token and leaves the email unverified", async () => {
    const user = await signupUser();
    const token = await verificationToken(user.email);
    await dbRun("update email_tokens set expires_at = ? where user_id = ? and purpose = 'verify_email'", new Date(Date.now() - 1000).toISOString(), user.id);
    await expectError(await verifyEmail(token), 400, "invalid_request");
    expect((await json(await me(user.accessToken))).email_verified).toBe(false);
  });

  it("does not accept a password-reset token", async () => {
    const user = await signupUser();
    const resetToken = await requestReset(user.email);
    await expectError(await verifyEmail(resetToken), 400, "invalid_request");
  });
});

describe("POST /api/auth/login", () => {
  it("answers 200 with an AuthResponse for the right password, whatever the email's case", async () => {
    const user = await signupUser();
    const response = await login(`  ${user.email.toUpperCase()} `, user.password);
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(Object.keys(body).sort()).toEqual(["access_token", "expires_in", "refresh_token", "user"]);
    expect(Object.keys(body.user).sort()).toEqual(USER_DTO_KEYS);
    expect(body.user).toMatchObject({ id: user.id, email: user.email, first_name: "Ada", last_name: "Lovelace" });
    expect((await me(body.access_token)).status).toBe(200);
  });

  it("answers 401 invalid_credentials, with the same body, for a wrong password and for an unknown email", async () => {
    const user = await signupUser();
    const wrongPassword = await expectError(await login(user.email, "wrong password!"), 401, "invalid_credentials");
    const unknownEmail = await expectError(await login(uniqueEmail("nobody"), user.password), 401, "invalid_credentials");
    expect(unknownEmail).toEqual(wrongPassword);
  });

  it("answers 400 for a missing password or an invalid email", async () => {
    const user = await signupUser();
    await expectError(await call("/api/auth/login", { body: { email: user.email } }), 400, "invalid_request");
    await expectError(await login("not-an-email", user.password), 400, "invalid_request");
  });

  it("answers 403 account_suspended for a suspended user with the right password (401 with a wrong one)", async () => {
    const user = await signupUser();
    await suspendUser(user.id);
    await expectError(await login(user.email, user.password), 403, "account_suspended");
    await expectError(await login(user.email, "wrong password!"), 401, "invalid_credentials");
  });

  it("answers 401 for an account that has no password", async () => {
    const user = await signupUser();
    await dbRun("update users set password_hash = null where id = ?", user.id);
    await expectError(await login(user.email, user.password), 401, "invalid_credentials");
  });
});

describe("admins from ADMIN_EMAILS", () => {
  it("marks a listed email as admin at signup or login", async () => {
    const admin = await adminUser();
    const body = await json(await me(admin.accessToken));
    expect(body.is_admin).toBe(true);
  });

  it("does not mark other users as admin", async () => {
    const user = await signupUser();
    expect((await json(await me(user.accessToken))).is_admin).toBe(false);
  });

  it("re-derives is_admin at login, so a user no longer listed loses it", async () => {
    const user = await signupUser();
    await dbRun("update users set is_admin = 1 where id = ?", user.id);
    const body = await json(await login(user.email, user.password));
    expect(body.user.is_admin).toBe(false);
    expect((await dbFirst<{ is_admin: number }>("select is_admin from users where id = ?", user.id))?.is_admin).toBe(0);
  });
});

describe("GET /api/auth/me", () => {
  it("answers the signed-in user as a UserDto", async () => {
    const user = await signupUser();
    const response = await me(user.accessToken);
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(Object.keys(body).sort()).toEqual(USER_DTO_KEYS);
    expect(body).toEqual({
      id: user.id,
      email: user.email,
      first_name: "Ada",
      last_name: "Lovelace",
      email_verified: false,
      marketing_emails_enabled: false,
      is_admin: false,
    });
  });

  it("answers 401 without a token", async () => {
    await expectError(await call("/api/auth/me"), 401, "unauthorized");
  });

  it("answers 403 account_suspended for a suspended user's token", async () => {
    const user = await signupUser();
    await suspendUser(user.id);
    await expectError(await me(user.accessToken), 403, "account_suspended");
  });
});

describe("POST /api/auth/forgot-password", () => {
  it("answers 200 with no body and mails a dashboard reset link when the account exists", async () => {
    const user = await signupUser();
    const response = await call("/api/auth/forgot-password", { body: { email: ` ${user.email.toUpperCase()} ` } });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
    const mail = await latestEmail(user.email, "Reset your password");
    expect(mail?.text).toMatch(RESET_LINK);
  });

  it("answers the same 200 for an unknown email and mails nothing", async () => {
    const unknown = uniqueEmail("ghost");
    const response = await call("/api/auth/forgot-password", { body: { email: unknown } });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
    // A request for a real account sent afterwards has been mailed by the time we look.
    const user = await signupUser();
    await requestReset(user.email);
    expect(await dbAll('select id from outbox_emails where "to" = ?', unknown)).toEqual([]);
  });

  it("the service sends exactly one reset email for an existing account and none for an unknown one", async () => {
    const user = await signupUser();
    const sent: EmailMessage[] = [];
    const deps = {
      db: createDb(env.DB),
      config: loadConfig(env),
      email: { send: async (m: EmailMessage) => void sent.push(m) },
      dashboardUrl: "https://dashboard.example.test",
    };
    await requestPasswordReset(deps, uniqueEmail("ghost"));
    expect(sent).toEqual([]);
    await requestPasswordReset(deps, user.email.toUpperCase());
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: user.email, subject: expect.stringContaining("Reset") });
    expect(sent[0]!.text).toMatch(RESET_LINK);
  });

  it("answers 400 for an invalid email", async () => {
    await expectError(await call("/api/auth/forgot-password", { body: { email: "nope" } }), 400, "invalid_request");
  });
});

describe("POST /api/auth/reset-password", () => {
  it("sets the new password once: the new one logs in, the old one does not, the token cannot be reused", async () => {
    const user = await signupUser();
    const token = await requestReset(user.email);
    const response = await resetPassword(token, "a brand new password");
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
    expect((await login(user.email, "a brand new password")).status).toBe(200);
    await expectError(await login(user.email, user.password), 401, "invalid_credentials");
    await expectError(await resetPassword(token, "yet another password"), 400, "invalid_request");
    const relogin = await login(user.email, "a brand new password");
    expect(relogin.status).toBe(200);
    // Following the emailed link proved the address, so it now counts as verified.
    expect((await json(relogin)).user.email_verified).toBe(true);
  });

  it("ends every existing session", async () => {
    const user = await signupUser();
    const second = await json(await login(user.email, user.password));
    const token = await requestReset(user.email);
    expect((await resetPassword(token, "a brand new password")).status).toBe(200);
    await expectError(await me(user.accessToken), 401, "unauthorized");
    await expectError(await me(second.access_token), 401, "unauthorized");
    await expectError(await refresh(user.refreshToken), 401, "unauthorized");
    await expectError(await refresh(second.refresh_token), 401, "unauthorized");
  });

  it("answers 400 for an unknown token", async () => {
    await expectError(await resetPassword("not-a-real-token", "a brand new password"), 400, "invalid_request");
  });

  it("answers 400 for an expired token and keeps the old password", async () => {
    const user = await signupUser();
    const token = await requestReset(user.email);
    await dbRun("update email_tokens set expires_at = ? where user_id = ? and purpose = 'reset_password'", new Date(Date.now() - 1000).toISOString(), user.id);
    await expectError(await resetPassword(token, "a brand new password"), 400, "invalid_request");
    expect((await login(user.email, user.password)).status).toBe(200);
  });

  it("answers 400 for a too-short or too-long new password without spending the token", async () => {
    const user = await signupUser();
    const token = await requestReset(user.email);
    await expectError(await resetPassword(token, "short"), 400, "invalid_request");
    await expectError(await resetPassword(token, "z".repeat(129)), 400, "invalid_request");
    expect((await resetPassword(token, "long enough now")).status).toBe(200);
  });

  it("does not accept an email-verification token", async () => {
    const user = await signupUser();
    const token = await verificationToken(user.email);
    await expectError(await resetPassword(token, "a brand new password"), 400, "invalid_request");
  });

  it("answers 400 for a missing token", async () => {
    await expectError(await call("/api/auth/reset-password", { body: { password: "a brand new password" } }), 400, "invalid_request");
  });
});

describe("JWT auth, mounted once on /api, fail-closed (app.ts, middleware/dashboard-auth.ts)", () => {
  it("every /api route of the app is a documented operation, so its declared security is what guards it", () => {
    const app = buildApp();
    const documented = new Set(
      app.openAPIRegistry.definitions.flatMap((d) =>
        d.type === "route" ? [`${d.route.method.toUpperCase()} ${d.route.path.replace(/\{([^}]+)\}/g, ":$1")}`] : [],
      ),
    );
    const undocumented = app.routes
      .filter((route) => route.path.startsWith("/api/") && route.method !== "ALL")
      .map((route) => `${route.method} ${route.path}`)
      .filter((route) => !documented.has(route));
    expect([...new Set(undocumented)]).toEqual([]);
  });

  it("a declared-JWT operation answers 401 without a token, a public one does not ask for one, an unknown /api path stays 404", async () => {
    await expectError(await call("/api/billing/packs"), 401, "unauthorized");
    await expectError(await call("/api/billing/subscription"), 401, "unauthorized");
    expect((await call("/api/billing/plans")).status).toBe(200);
    await expectError(await call("/api/no-such-path"), 404, "not_found");
  });

  it("fails closed: a route that forgets to declare its security, or has no schema at all, still asks for the JWT", async () => {
    const app = buildApp();
    app.openapi(createRoute({ method: "get", path: "/api/forgot-security", responses: { 200: { description: "would be open" } } }), (c) => c.text("open"));
    app.get("/api/no-schema", (c) => c.text("open"));
    app.openapi(createRoute({ method: "get", path: "/api/declared-public", security: [], responses: { 200: { description: "public" } } }), (c) =>
      c.text("public"),
    );
    const fetchApp = (path: string) => app.request(path, { headers: { "CF-Connecting-IP": "203.0.113.9" } }, env);
    await expectError(await fetchApp("/api/forgot-security"), 401, "unauthorized");
    await expectError(await fetchApp("/api/no-schema"), 401, "unauthorized");
    expect(await (await fetchApp("/api/declared-public")).text()).toBe("public");
  });
});

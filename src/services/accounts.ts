import type { Deps } from "./deps";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { type Caller, type UserRow, users } from "../db/schema";
import type { Config } from "../env";
import { isUniqueViolation } from "../lib/db-errors";
import { ApiError } from "../lib/errors";
import { nowIso } from "../lib/time";
import { passwordResetEmail, verificationEmail } from "./account-emails";
import { consumeEmailToken, createEmailToken } from "./email-tokens";
import { ledgerChangeStatements } from "./ledger";
import { requireLinkOrigin } from "./link-origin";
import { SIGNUP_BONUS_CREDITS } from "./unverified-spending";
import { decoyPasswordHash, hashPassword, verifyPassword } from "./passwords";
import { revokeUserSessions, type SessionTokens, startSession } from "./sessions";

/** Free credits every new account starts with, as a `signup_bonus` ledger entry. */

export type AccountDeps = Pick<Deps, "db" | "config" | "email">;

function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function isListedAdmin(config: Config, email: string): boolean {
  return config.ADMIN_EMAILS.includes(email);
}

export interface SignupInput {
  email: string;
  password: string;
  firstName?: string | null;
  lastName?: string | null;
}

/**
 * Creates the account and its signup bonus in one transaction, starts a session and mails a
 * verification link to the dashboard's /verify-email page, which confirms it through
 * GET /api/auth/verify-email and shows the outcome (a raw 400 JSON would greet an expired link).
 */
export async function signup(deps: AccountDeps & Pick<Deps, "dashboardUrl">, input: SignupInput): Promise<SessionTokens & { user: UserRow }> {
  const { db, config } = deps;
  // Before anything is written: a request whose link could not be built creates no account.
  const linkBase = requireLinkOrigin(deps.dashboardUrl);
  const email = normalizeEmail(input.email);
  if (await db.select({ id: users.id }).from(users).where(eq(users.email, email)).get()) {
    throw new ApiError("email_taken", "An account with this email already exists.");
  }
  const id = crypto.randomUUID();
  const now = nowIso();
  const bonus = ledgerChangeStatements(db, id, {
    kind: "signup_bonus",
    delta: SIGNUP_BONUS_CREDITS,
    idempotencyKey: "signup_bonus",
    note: "Free credits for a new account",
  });
  try {
    await db.batch([
      db.insert(users).values({
        id,
        email,
        passwordHash: await hashPassword(input.password),
        firstName: input.firstName?.trim() ?? "",
        lastName: input.lastName?.trim() ?? "",
        isAdmin: isListedAdmin(config, email),
        createdAt: now,
        updatedAt: now,
      }),
      bonus.insert,
      bonus.update,
    ]);
  } catch (error) {
    // Two signups for one email at once: the unique index lets exactly one through.
    if (isUniqueViolation(error, "users.email")) {
      throw new ApiError("email_taken", "An account with this email already exists.");
    }
    throw error;
  }
  const user = await db.select().from(users).where(eq(users.id, id)).get();
  if (!user) throw new Error("User vanished right after signup");
  const token = await createEmailToken(db, id, "verify_email");
  await deps.email.send(verificationEmail(email, `${linkBase}/verify-email?token=${encodeURIComponent(token)}`));
  return { ...(await startSession(db, config, id)), user };
}

/** Checks the password (in constant time, even for unknown emails), then suspension, then starts a session. */
export async function login(deps: AccountDeps, emailInput: string, password: string): Promise<SessionTokens & { user: UserRow }> {
  const { db, config } = deps;
  const email = normalizeEmail(emailInput);
  const user = await db.select().from(users).where(eq(users.email, email)).get();
  const valid = await verifyPassword(password, user?.passwordHash ?? (await decoyPasswordHash()));
  if (!user?.passwordHash || !valid) {
    throw new ApiError("invalid_credentials", "Email or password is incorrect.");
  }
  if (user.suspendedAt) throw new ApiError("account_suspended", "This account is suspended.");
  const isAdmin = isListedAdmin(config, email);
  if (user.isAdmin !== isAdmin) {
    await db.update(users).set({ isAdmin, updatedAt: nowIso() }).where(eq(users.id, user.id));
    user.isAdmin = isAdmin;
  }
  return { ...(await startSession(db, config, user.id)), user };
}

/** Mails a single-use reset link to the dashboard if the account exists; silent otherwise. */
export async function requestPasswordReset(deps: AccountDeps & Pick<Deps, "dashboardUrl">, emailInput: string): Promise<void> {
  const linkBase = requireLinkOrigin(deps.dashboardUrl);
  const email = normalizeEmail(emailInput);
  const user = await deps.db.select({ id: users.id }).from(users).where(eq(users.email, email)).get();
  if (!user) return;
  const token = await createEmailToken(deps.db, user.id, "reset_password");
  await deps.email.send(passwordResetEmail(email, `${linkBase}/reset-password?token=${encodeURIComponent(token)}`));
}

/**
 * Sets a new password from a reset token. The token is spent, every session ends, and the
 * email counts as verified (the link proved the caller reads that inbox).
 */
export async function resetPassword(deps: AccountDeps, token: string, password: string): Promise<void> {
  const userId = await consumeEmailToken(deps.db, token, "reset_password");
  if (!userId) throw ApiError.invalid("The reset link is invalid, expired or already used.");
  await deps.db
    .update(users)
    .set({ passwordHash: await hashPassword(password), emailVerified: true, updatedAt: nowIso() })
    .where(eq(users.id, userId));
  await revokeUserSessions(deps.db, userId);
}

export async function verifyEmail(db: Db, token: string): Promise<void> {
  const userId = await consumeEmailToken(db, token, "verify_email");
  if (!userId) throw ApiError.invalid("The verification link is invalid, expired or already used.");
  await db.update(users).set({ emailVerified: true, updatedAt: nowIso() }).where(eq(users.id, userId));
}

/** Changes the password of a signed-in user and ends their other sessions. */
export async function changePassword(db: Db, user: Caller, currentSessionId: string, current: string, next: string): Promise<void> {
  if (!user.passwordHash) throw ApiError.invalid("This account has no password set; use password reset instead.");
  if (!(await verifyPassword(current, user.passwordHash))) {
    throw new ApiError("invalid_credentials", "The current password is incorrect.");
  }
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(next), updatedAt: nowIso() })
    .where(eq(users.id, user.id));
  await revokeUserSessions(db, user.id, currentSessionId);
}

export async function updateProfile(db: Db, userId: string, firstName: string, lastName: string): Promise<void> {
  await db.update(users).set({ firstName: firstName.trim(), lastName: lastName.trim(), updatedAt: nowIso() }).where(eq(users.id, userId));
}

export async function setMarketingEmails(db: Db, userId: string, enabled: boolean): Promise<void> {
  await db.update(users).set({ marketingEmailsEnabled: enabled, updatedAt: nowIso() }).where(eq(users.id, userId));
}

export function userDto(user: Caller) {
  return {
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    email_verified: user.emailVerified,
    marketing_emails_enabled: user.marketingEmailsEnabled,
    is_admin: user.isAdmin,
  };
}

import { z } from "@hono/zod-openapi";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../services/passwords";

/** DTOs and request bodies shared by several routes. Request bodies are strict: unknown fields are 400. */

// Trimmed before the format check: " Ada@Example.com " is the same account as "ada@example.com"
// (the services lower-case it), not an invalid email. (z.email() would check before trimming.)
export const Email = z
  .string()
  .trim()
  .email({ error: "must be a valid email address" })
  .max(254)
  .openapi({ description: "The account's email address (at most 254 characters; trimmed, and case does not matter).", example: "ada@example.com" });
const NewPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, { error: `must be at least ${PASSWORD_MIN_LENGTH} characters` })
  .max(PASSWORD_MAX_LENGTH, { error: `must be at most ${PASSWORD_MAX_LENGTH} characters` })
  .openapi({ description: `The new password: ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`, example: "correct horse battery" });
/** A password being checked, not set: any length up to the maximum (old passwords may predate a rule). */
const AnyPassword = z.string().min(1).max(PASSWORD_MAX_LENGTH).openapi({ description: "The account's password.", example: "correct horse battery" });
const Name = z.string().max(100, { error: "must be at most 100 characters" });

export const UserDto = z
  .object({
    id: z.uuid().openapi({ description: "The user's id." }),
    email: z.string().openapi({ description: "The email address, lower-cased." }),
    first_name: z.string().openapi({ description: "First name; empty when not given." }),
    last_name: z.string().openapi({ description: "Last name; empty when not given." }),
    email_verified: z.boolean().openapi({ description: "Whether the address was confirmed (the emailed verification link, or a password reset)." }),
    marketing_emails_enabled: z.boolean().openapi({ description: "Whether the user agreed to receive marketing emails (Settings)." }),
    is_admin: z.boolean().openapi({ description: "Whether the user may use the Admin operations." }),
  })
  .openapi("UserDto", { description: "A signed-in user's account." });

export const AuthResponse = z
  .object({
    access_token: z.string().openapi({ description: "A JWT for the dashboard API (Authorization: Bearer); it expires after expires_in seconds" }),
    expires_in: z.int().openapi({ description: "Seconds until access_token expires (900: 15 minutes); refresh before then", example: 900 }),
    refresh_token: z.string().openapi({ description: "Exchanged at /api/auth/refresh for a new pair; single use, valid 30 days" }),
    user: UserDto,
  })
  .openapi("AuthResponse", { description: "A new session: an access token, the refresh token that renews it, and the user." });

export const BalanceDto = z
  .object({
    credits: z.int().openapi({ description: "The balance in credits (never negative; credits reserved by running jobs are already deducted)." }),
    usd: z.string().openapi({ description: "The balance in USD (1 credit = 0.01 USD)", example: "5.00" }),
  })
  .openapi("BalanceDto", { description: "A credit balance." });

export const ApiKeyDto = z
  .object({
    id: z.uuid().openapi({ description: "The key's id (revoke and reset use it)." }),
    name: z.string().openapi({ description: 'The name given at creation; "Key <prefix>" when none was given', example: "ci server" }),
    prefix: z.string().openapi({ description: "The leading characters of the key", example: "dr_live_Ab3x" }),
    created_at: z.iso.datetime().openapi({ description: "When the key was created (UTC)." }),
    last_used_at: z.iso
      .datetime()
      .nullable()
      .optional()
      .openapi({ description: "When the key last authenticated a call (UTC, updated at most once a minute); null if never used." }),
  })
  .openapi("ApiKeyDto", { description: "An API key, without its secret." });

export const CreatedKey = ApiKeyDto.extend({
  plaintext: z.string().openapi({ description: "The full key; shown only in this response." }),
}).openapi("CreatedKey", { description: "An API key with its full text, which is shown only this once: store it now." });

export const SignupBody = z
  .strictObject({
    email: Email,
    password: NewPassword,
    first_name: Name.nullable().optional().openapi({ description: "First name, at most 100 characters." }),
    last_name: Name.nullable().optional().openapi({ description: "Last name, at most 100 characters." }),
  })
  .openapi("SignupBody", { description: "A new account's details." });

export const LoginBody = z.strictObject({ email: Email, password: AnyPassword }).openapi("LoginBody", { description: "Email and password." });
const RefreshToken = z
  .string()
  .min(1)
  .max(512)
  .openapi({ description: "The refresh token of the session (`rt_...`), from sign-up, login or the last refresh." });
export const RefreshBody = z.strictObject({ refresh_token: RefreshToken }).openapi("RefreshBody", { description: "A session's refresh token." });
export const ForgotBody = z.strictObject({ email: Email }).openapi("ForgotBody", { description: "The email address of the account to reset." });
export const ResetBody = z
  .strictObject({
    token: z.string().min(1).max(512).openapi({ description: "The token from the reset link (valid 1 hour, single use)." }),
    password: NewPassword,
  })
  .openapi("ResetBody", { description: "The reset token and the new password." });
export const PasswordBody = z
  .strictObject({
    current_password: AnyPassword.openapi({ description: "The password in use now (401 `invalid_credentials` if wrong)." }),
    new_password: NewPassword,
  })
  .openapi("PasswordBody", { description: "The current password and the new one." });
export const ProfileBody = z
  .strictObject({
    first_name: Name.openapi({ description: "First name, at most 100 characters (empty clears it)." }),
    last_name: Name.openapi({ description: "Last name, at most 100 characters (empty clears it)." }),
  })
  .openapi("ProfileBody", { description: "The user's name." });
export const MarketingBody = z
  .strictObject({
    enabled: z.boolean().openapi({
      description: "True to receive marketing emails, false to stop them. Service emails (verification, password reset, ticket replies) are sent either way.",
    }),
  })
  .openapi("MarketingBody", { description: "The marketing email preference." });
export const CreateKeyBody = z
  .strictObject({
    // A name given but blank is a mistake to report, not a request for the default (issue 39).
    name: z
      .string()
      .trim()
      .min(1, { error: "must not be empty or only whitespace (leave it out for the default name)" })
      .max(100)
      .nullable()
      .optional()
      .openapi({
        description:
          'A name to tell the key apart, 1 to 100 characters after trimming surrounding whitespace. Absent or null: "Key <prefix>". Empty or only whitespace: 400 `invalid_request`.',
        example: "ci server",
      }),
  })
  .openapi("CreateBody", { description: "A new API key's name." });

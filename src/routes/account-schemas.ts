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
  .openapi({ example: "ada@example.com" });
export const NewPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, { error: `must be at least ${PASSWORD_MIN_LENGTH} characters` })
  .max(PASSWORD_MAX_LENGTH, { error: `must be at most ${PASSWORD_MAX_LENGTH} characters` });
/** A password being checked, not set: any length up to the maximum (old passwords may predate a rule). */
export const AnyPassword = z.string().min(1).max(PASSWORD_MAX_LENGTH);
const Name = z.string().max(100, { error: "must be at most 100 characters" });

export const UserDto = z
  .object({
    id: z.uuid(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    email_verified: z.boolean(),
    marketing_emails_enabled: z.boolean(),
    is_admin: z.boolean(),
  })
  .openapi("UserDto");

export const AuthResponse = z
  .object({
    access_token: z.string().openapi({ description: "A JWT for the dashboard API (Authorization: Bearer); it expires after expires_in seconds" }),
    expires_in: z.int().openapi({ description: "Seconds until access_token expires (900: 15 minutes); refresh before then", example: 900 }),
    refresh_token: z.string().openapi({ description: "Exchanged at /api/auth/refresh for a new pair; single use, valid 30 days" }),
    user: UserDto,
  })
  .openapi("AuthResponse");

export const BalanceDto = z
  .object({
    credits: z.int(),
    usd: z.string().openapi({ description: "The balance in USD (1 credit = 0.01 USD)", example: "5.00" }),
  })
  .openapi("BalanceDto");

export const ApiKeyDto = z
  .object({
    id: z.uuid(),
    name: z.string().openapi({ description: 'The name given at creation; "Key <prefix>" when none was given', example: "ci server" }),
    prefix: z.string().openapi({ description: "The leading characters of the key", example: "dr_live_Ab3x" }),
    created_at: z.iso.datetime(),
    last_used_at: z.iso.datetime().nullable().optional(),
  })
  .openapi("ApiKeyDto");

export const CreatedKey = ApiKeyDto.extend({
  plaintext: z.string().openapi({ description: "The full key; shown only in this response." }),
}).openapi("CreatedKey");

export const SignupBody = z
  .strictObject({
    email: Email,
    password: NewPassword,
    first_name: Name.nullable().optional(),
    last_name: Name.nullable().optional(),
  })
  .openapi("SignupBody");

export const LoginBody = z.strictObject({ email: Email, password: AnyPassword }).openapi("LoginBody");
export const RefreshBody = z.strictObject({ refresh_token: z.string().min(1).max(512) }).openapi("RefreshBody");
export const ForgotBody = z.strictObject({ email: Email }).openapi("ForgotBody");
export const ResetBody = z.strictObject({ token: z.string().min(1).max(512), password: NewPassword }).openapi("ResetBody");
export const PasswordBody = z
  .strictObject({ current_password: AnyPassword, new_password: NewPassword })
  .openapi("PasswordBody");
export const ProfileBody = z.strictObject({ first_name: Name, last_name: Name }).openapi("ProfileBody");
export const MarketingBody = z.strictObject({ enabled: z.boolean() }).openapi("MarketingBody");
export const CreateKeyBody = z
  .strictObject({ name: z.string().trim().max(100).nullable().optional() })
  .openapi("CreateBody");

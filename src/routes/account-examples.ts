import type { z } from "@hono/zod-openapi";
import type { ApiKeyDto, AuthResponse, CreatedKey, UserDto } from "./account-schemas";

/**
 * The examples the reference shows for accounts and API keys, shaped like real answers of this
 * service. Typed by their schemas here, and validated against the published schemas by
 * test/openapi-reference.test.ts.
 */

type Input<T extends z.ZodType> = z.input<T>;

export const userExample = {
  id: "4672496b-6c96-46ca-b6a6-0d01df76b1c9",
  email: "ada@example.com",
  first_name: "Ada",
  last_name: "Lovelace",
  email_verified: false,
  marketing_emails_enabled: false,
  is_admin: false,
} satisfies Input<typeof UserDto>;

export const authResponseExample = {
  access_token:
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ0eXAiOiJhY2Nlc3MiLCJzaWQiOiIxNzhjMmMzMC05NTY2LTQzOTUtOTU5YS1hYTFjZmIxNTM1YjQiLCJpc3MiOiJkZWVwLXJlc2VhcmNoLWFwaSIsImF1ZCI6ImRlZXAtcmVzZWFyY2gtZGFzaGJvYXJkIiwic3ViIjoiNDY3MjQ5NmItNmM5Ni00NmNhLWI2YTYtMGQwMWRmNzZiMWM5IiwiaWF0IjoxNzk1NDU2Nzg4LCJleHAiOjE3OTU0NTc2ODh9.A2quYajv6rTaX8mO99HO9S0WXwNkETTMAZ5W3smaeq4",
  expires_in: 900,
  refresh_token: "rt_9_f-2plJCvD4G2WZ3GQAHazH4DLnm9OZqtFP7KD7K5E",
  user: userExample,
} satisfies Input<typeof AuthResponse>;

export const apiKeyExample = {
  id: "7c2d06af-3f10-4685-9ad7-8fa3c1608b26",
  name: "ci server",
  prefix: "dr_live_YSoZ",
  created_at: "2026-11-23T17:59:48.444Z",
  last_used_at: "2026-11-23T18:04:12.514Z",
} satisfies Input<typeof ApiKeyDto>;

export const createdKeyExample = {
  ...apiKeyExample,
  last_used_at: null,
  plaintext: "dr_live_YSoZkMUXHyWzSoN7Y64Vl58MpleWR2Mj",
} satisfies Input<typeof CreatedKey>;

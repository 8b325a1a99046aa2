/**
 * The evaluation's account: the admin signs up (or logs in, on a server that already has it),
 * gets enough credits through the admin endpoint, and creates the API key the questions are
 * asked with.
 */
import { type ApiClient, HttpError } from "./client";

export interface EvalAccount {
  userId: string;
  email: string;
  /** Dashboard access token (admin endpoints). */
  accessToken: string;
  /** The API key (the /v1 endpoints), as a customer would use it. */
  apiKey: string;
}

interface AuthResponse {
  access_token: string;
  user: { id: string; email: string; is_admin: boolean };
}

export async function signInAdmin(api: ApiClient, email: string, password: string): Promise<{ userId: string; accessToken: string }> {
  let auth: AuthResponse;
  try {
    auth = (await api.post<AuthResponse>("/api/auth/signup", { email, password })).body;
  } catch (error) {
    if (!(error instanceof HttpError && error.code === "email_taken")) throw error;
    // A server started earlier (--base-url) may already know the account.
    auth = (await api.post<AuthResponse>("/api/auth/login", { email, password })).body;
  }
  if (!auth.user.is_admin) {
    throw new Error(
      `${email} is not an admin on ${api.baseUrl}: start that server with --var ADMIN_EMAILS:${email} ` +
        "(or pass --admin-email with an address already in its ADMIN_EMAILS), then run the evaluation again",
    );
  }
  return { userId: auth.user.id, accessToken: auth.access_token };
}

/** Adds `credits` through POST /api/admin/users/{id}/credits; answers the balance after. */
export async function grantCredits(api: ApiClient, accessToken: string, userId: string, credits: number, runId: string): Promise<number> {
  const { body } = await api.post<{ balance_after: number }>(
    `/api/admin/users/${encodeURIComponent(userId)}/credits`,
    { delta_credits: credits, note: `npm run eval ${runId}`, idempotency_key: `eval-${runId}` },
    accessToken,
  );
  return body.balance_after;
}

export async function createApiKey(api: ApiClient, accessToken: string, name: string): Promise<string> {
  return (await api.post<{ plaintext: string }>("/api/keys", { name }, accessToken)).body.plaintext;
}

export async function creditBalance(api: ApiClient, apiKey: string): Promise<number> {
  return (await api.get<{ credits: number }>("/v1/credits", apiKey)).body.credits;
}

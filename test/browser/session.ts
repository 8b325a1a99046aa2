import type { Page } from "@playwright/test";

/**
 * A fresh account for a browser test that is not about signing up: made through the API, its
 * session handed to the page the way the dashboard keeps one (the refresh token in localStorage,
 * which the app trades for an access token on load), so no form is filled.
 */

/** The dashboard's localStorage key for the refresh token (web/src/api/client.ts). */
const REFRESH_KEY = "deep-research.refresh-token";

export interface Account {
  email: string;
  /** An access token of the account, for the test's own API calls (the page has its own). */
  accessToken: string;
}

export async function signedIn(page: Page, base: string, prefix: string): Promise<Account> {
  const email = `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const response = await fetch(`${base}/api/auth/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: `${prefix} browser password` }),
  });
  if (!response.ok) throw new Error(`sign-up of ${email} refused: ${response.status} ${await response.text()}`);
  return handedOver(page, email, (await response.json()) as Tokens);
}

type Tokens = { access_token: string; refresh_token: string };

/**
 * A known account signed in the same way, made first if the server does not have it yet: the
 * admin (the server lists admin@example.com in ADMIN_EMAILS), whom other test files may have made.
 */
export async function signedInAs(page: Page, base: string, email: string, password: string): Promise<Account> {
  const post = (path: string) =>
    fetch(`${base}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email, password }) });
  let response = await post("/api/auth/login");
  // Not there yet: sign up; one made meanwhile by another file answers 409, and the login then works.
  if (response.status === 401) response = await post("/api/auth/signup");
  if (response.status === 409) response = await post("/api/auth/login");
  if (!response.ok) throw new Error(`signing in ${email} refused: ${response.status} ${await response.text()}`);
  return handedOver(page, email, (await response.json()) as Tokens);
}

async function handedOver(page: Page, email: string, tokens: Tokens): Promise<Account> {
  // Set only when absent: the app rotates the token on its first refresh, and a reload must keep the new one.
  await page.addInitScript(
    ([key, token]) => {
      if (!localStorage.getItem(key)) localStorage.setItem(key, token);
    },
    [REFRESH_KEY, tokens.refresh_token] as const,
  );
  return { email, accessToken: tokens.access_token };
}

/** A JSON call to the API with the account's access token; throws on an error status. */
export async function apiCall<T = any>(base: string, account: Account, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${account.accessToken}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A playground job run to its end through the API (a corpus job ends in about a second); its final result. */
export async function finishedJob(base: string, account: Account, request: Record<string, unknown>): Promise<any> {
  const accepted = await apiCall(base, account, "POST", "/api/playground/research", { ...request, async: true });
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const job = await apiCall(base, account, "GET", `/api/playground/research/${accepted.id}`);
    if (["succeeded", "failed", "cancelled"].includes(job.status)) return job;
  }
  throw new Error(`job ${accepted.id} did not finish within 60 s`);
}

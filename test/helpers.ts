import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import { recordExchange } from "./setup/response-contract";

export const BASE = "https://api.example.test";
let counter = 0;

/** A fresh email (and client IP) per call, so tests never share rate-limit buckets or accounts. */
export function uniqueEmail(tag = "user"): string {
  counter += 1;
  return `${tag}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

export function randomIp(): string {
  const b = () => Math.floor(Math.random() * 254) + 1;
  return `198.${b()}.${b()}.${b()}`;
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  rawBody?: string;
  token?: string;
  headers?: Record<string, string>;
  ip?: string;
}

/** The request a test client sends: a client IP, the bearer token, a JSON (or raw) body, redirects not followed. */
export function testRequest(url: string, options: CallOptions = {}): Request {
  const headers: Record<string, string> = { "CF-Connecting-IP": options.ip ?? randomIp(), ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["Content-Type"] ??= "application/json";
  }
  return new Request(url, { method: options.method ?? (body ? "POST" : "GET"), headers, body, redirect: "manual" });
}

/** Calls the worker's fetch handler through the runtime, like a client over HTTP would. */
export async function call(path: string, options: CallOptions = {}): Promise<Response> {
  const request = testRequest(BASE + path, options);
  const response = await exports.default.fetch(request);
  recordExchange(request, response); // checked against /openapi.json after the test (setup/check-responses.ts)
  return response;
}

/** The next page's path from a list's `Link: <url>; rel="next"` header, or null on the last page. */
export function nextPage(response: Response): string | null {
  const match = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get("Link") ?? "");
  if (!match) return null;
  const url = new URL(match[1]!);
  return url.pathname + url.search;
}

/** Every row of a list, following its Link headers from `path`: how a client pages. */
export async function followPages<T = any>(path: string, options: CallOptions = {}): Promise<T[]> {
  const rows: T[] = [];
  for (let next: string | null = path; next; ) {
    const response = await call(next, options);
    expect(response.status).toBe(200);
    rows.push(...(await json<T[]>(response.clone())));
    next = nextPage(response);
  }
  return rows;
}

export async function json<T = any>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

export async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("X-Request-Id")).toBeTruthy();
  const body = await json(response);
  expect(body).toEqual({ error: expect.objectContaining({ code, message: expect.any(String) }) });
  expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+/); // never a stack trace
  return body;
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
}

export async function signupUser(overrides: { email?: string; password?: string } = {}): Promise<TestUser> {
  const email = overrides.email ?? uniqueEmail();
  const password = overrides.password ?? "correct horse battery";
  const response = await call("/api/auth/signup", { body: { email, password, first_name: "Ada", last_name: "Lovelace" } });
  expect(response.status).toBe(200);
  const body = await json(response);
  return { id: body.user.id, email, password, accessToken: body.access_token, refreshToken: body.refresh_token };
}

export async function createKey(user: TestUser, name = "test"): Promise<{ id: string; plaintext: string }> {
  const response = await call("/api/keys", { token: user.accessToken, body: { name } });
  expect(response.status).toBe(200);
  return json(response);
}

/** The newest outbox email sent to `to`, waiting briefly for background sends. */
export async function latestEmail(to: string, subjectIncludes = ""): Promise<{ subject: string; text: string } | undefined> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const row = await env.DB.prepare('select subject, text from outbox_emails where "to" = ? and subject like ? order by created_at desc, rowid desc limit 1')
      .bind(to.toLowerCase(), `%${subjectIncludes}%`)
      .first<{ subject: string; text: string }>();
    if (row) return row;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}

export function tokenFromLink(text: string, pattern: RegExp): string {
  const match = pattern.exec(text);
  if (!match?.[1]) throw new Error(`no link matching ${pattern} in: ${text}`);
  return decodeURIComponent(match[1]);
}

/** The ledger invariant: sum of deltas equals the balance, the balance_after chain is consistent and never negative. */
export async function expectLedgerConsistent(userId: string): Promise<number> {
  const { results } = await env.DB.prepare("select delta, balance_after from ledger_entries where user_id = ? order by seq")
    .bind(userId)
    .all<{ delta: number; balance_after: number }>();
  let running = 0;
  for (const entry of results) {
    running += entry.delta;
    expect(entry.balance_after).toBe(running);
    expect(entry.balance_after).toBeGreaterThanOrEqual(0);
  }
  const user = await env.DB.prepare("select credits from users where id = ?").bind(userId).first<{ credits: number }>();
  expect(user?.credits).toBe(running);
  return running;
}

export const ADMIN_EMAIL = "admin@example.com"; // listed in ADMIN_EMAILS by vitest.config.ts
const ADMIN_PASSWORD = "admin password 123";

/** Signs in the admin (signing up first if the database has none yet: test files share one). */
export async function adminUser(): Promise<TestUser> {
  const login = await call("/api/auth/login", { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
  const response = login.status === 401 ? await call("/api/auth/signup", { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } }) : login;
  expect(response.status).toBe(200);
  const body = await json(response);
  expect(body.user.is_admin).toBe(true);
  return { id: body.user.id, email: ADMIN_EMAIL, password: ADMIN_PASSWORD, accessToken: body.access_token, refreshToken: body.refresh_token };
}

/** Runs one SQL statement against the test database (to set up states the API cannot reach: suspension, expiry). */
export async function dbRun(query: string, ...params: unknown[]): Promise<void> {
  await env.DB.prepare(query)
    .bind(...params)
    .run();
}

/** The first row of a query against the test database. */
export async function dbFirst<T = Record<string, unknown>>(query: string, ...params: unknown[]): Promise<T | null> {
  return env.DB.prepare(query)
    .bind(...params)
    .first<T>();
}

/** All rows of a query against the test database. */
export async function dbAll<T = Record<string, unknown>>(query: string, ...params: unknown[]): Promise<T[]> {
  return (
    await env.DB.prepare(query)
      .bind(...params)
      .all<T>()
  ).results;
}

/**
 * Suspends a user the way an admin does (POST /api/admin/users/{id}/suspend), so this isolate
 * forgets the user's verified API keys at once (services/verified-keys.ts).
 */
export async function suspendUser(userId: string): Promise<void> {
  const admin = await adminUser();
  const response = await call(`/api/admin/users/${userId}/suspend`, { method: "POST", token: admin.accessToken });
  expect(response.status).toBe(200);
}

/** POST /api/auth/login with a fresh client IP. */
export function login(email: string, password: string, ip?: string): Promise<Response> {
  return call("/api/auth/login", { body: { email, password }, ip });
}

/** GET /api/auth/me with an access token. */
export function me(accessToken: string): Promise<Response> {
  return call("/api/auth/me", { token: accessToken });
}

/** POST /api/auth/refresh with a refresh token. */
export function refresh(refreshToken: string): Promise<Response> {
  return call("/api/auth/refresh", { body: { refresh_token: refreshToken } });
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// ---------------------------------------------------------------------------------------------
// Admin and support tests (issue 6).

export interface TestJob {
  status?: "pending" | "running" | "succeeded" | "failed" | "cancelled";
  question?: string;
  mode?: string;
  creditsReserved?: number;
  creditsCharged?: number;
  costUsdMicros?: number;
  createdAt?: string;
  /** Also debit the charge through the ledger (a reservation entry), as a real job would. Default true. */
  charge?: boolean;
}

/**
 * Inserts a research_jobs row the way the jobs layer writes a finished one (the admin tests read
 * jobs; they do not run them). By default the charge is also taken through the ledger as one
 * `reservation` entry, so balances and the ledger invariant look like after a real job.
 */
export async function insertJob(userId: string, job: TestJob = {}): Promise<string> {
  const id = crypto.randomUUID();
  const status = job.status ?? "succeeded";
  const terminal = status === "succeeded" || status === "failed" || status === "cancelled";
  const mode = job.mode ?? "standard";
  const question = job.question ?? "What changed in EU tariff policy in 2025?";
  const reserved = job.creditsReserved ?? 60;
  const charged = job.creditsCharged ?? (status === "succeeded" ? reserved : 0);
  const cost = job.costUsdMicros ?? (status === "succeeded" ? 212_000 : 0);
  const created = job.createdAt ?? new Date().toISOString();
  const completed = terminal ? new Date(Date.parse(created) + 14_250).toISOString() : null;
  const request = { question, mode };
  const result =
    status === "succeeded"
      ? {
          id,
          status,
          question,
          mode,
          brief: "A cited brief.",
          sources: [{ url: "https://example.org/a", title: "A" }],
          credits_charged: charged,
          cost_usd: cost / 1e6,
          error: null,
          created_at: created,
          completed_at: completed,
        }
      : null;
  await dbRun(
    `insert into research_jobs (id, user_id, origin, status, mode, question, request_json, result_json, credits_reserved, credits_charged,
       cost_usd_micros, error, latency_ms, source_count, wave_count, created_at, started_at, completed_at, deadline_at)
     values (?, ?, 'api', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    id,
    userId,
    status,
    mode,
    question,
    JSON.stringify(request),
    result ? JSON.stringify(result) : null,
    reserved,
    charged,
    cost,
    status === "failed" ? "provider error" : null,
    terminal ? 14_250 : null,
    result ? 1 : null,
    terminal ? 2 : null,
    created,
    created,
    completed,
    new Date(Date.parse(created) + 180_000).toISOString(),
  );
  if (job.charge !== false && charged > 0) {
    const { applyLedgerChange } = await import("../src/services/ledger");
    const { createDb } = await import("../src/db/client");
    const r = await applyLedgerChange(createDb(env.DB), userId, { kind: "reservation", delta: -charged, idempotencyKey: `reservation:${id}`, relatedId: id });
    expect(r.status).toBe("applied");
  }
  return id;
}

/** POSTs a payment-processor event to /api/billing/webhook, signed as Stripe signs (HMAC-SHA256 of `${t}.${body}`). */
export async function postSignedWebhook(event: Record<string, unknown>, secret = "whsec_test_secret_for_tests"): Promise<Response> {
  const rawBody = JSON.stringify(event);
  const t = Math.floor(Date.now() / 1000);
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(`${t}.${rawBody}`)));
  const hex = [...mac].map((b) => b.toString(16).padStart(2, "0")).join("");
  return call("/api/billing/webhook", { method: "POST", rawBody, headers: { "Content-Type": "application/json", "Stripe-Signature": `t=${t},v1=${hex}` } });
}

/** The audit rows of one target, newest first. */
export async function auditOf(targetId: string): Promise<{ action: string; admin_id: string; details: string | null }[]> {
  return dbAll("select action, admin_id, details from audit_log where target_id = ? order by seq desc", targetId);
}

import { env } from "cloudflare:workers";
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../src/db/client";
import { loadConfig } from "../src/env";
import worker from "../src/index";
import { HOUR, MINUTE } from "../src/lib/time";
import { createEmailSender, EMAIL_ATTEMPTS, EMAIL_SWEEP_RETRIES } from "../src/services/email";
import { adminUser, call, dbFirst, json } from "./helpers";

/**
 * Issue 41, item 1 (and "a failed send is recorded and retried"): an email whose every attempt
 * failed on a 429, a 5xx or no answer is sent again by the cron sweep, with the same
 * Idempotency-Key, inside Resend's 24 hours of that key
 * (https://resend.com/docs/dashboard/emails/idempotency-keys), a bounded number of times; any other
 * 4xx (https://resend.com/docs/api-reference/errors) stays failed. Driven through the worker's
 * scheduled handler; Resend is replayed with MSW.
 */
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** The bindings of a deployment with Resend configured. */
const resendEnv = { ...env, RESEND_API_KEY: "re_test_key", EMAIL_FROM: "Deep Research <no-reply@example.com>" };

/** Resend answering each request with `answer()`, recording the Idempotency-Key and recipient of each. */
function resend(answer: () => Response) {
  const seen: { key: string | null; to: string }[] = [];
  server.use(
    http.post("https://api.resend.com/emails", async ({ request }) => {
      seen.push({ key: request.headers.get("Idempotency-Key"), to: ((await request.json()) as { to: string[] }).to[0]! });
      return answer();
    }),
  );
  return seen;
}
const accepted = () => HttpResponse.json({ id: "4ef9a417-02e9-4d39-ad75-9611e0fcc33c" });
const unavailable = () => HttpResponse.json({ name: "internal_server_error", message: "Service unavailable" }, { status: 503 });
const rateLimited = () => HttpResponse.json({ name: "rate_limit_exceeded", message: "Too many requests" }, { status: 429, headers: { "Retry-After": "1" } });

interface Row {
  id: string;
  delivery_status: string;
  delivery_error: string | null;
  attempts: number;
  next_attempt_at: string | null;
  provider_message_id: string | null;
}
const rowTo = async (to: string) =>
  (await dbFirst<Row>('select id, delivery_status, delivery_error, attempts, next_attempt_at, provider_message_id from outbox_emails where "to" = ?', to))!;

/** A verification email to a new address, its first send answered by `answer` (its waits not slept). */
async function firstSend(answer: () => Response) {
  const to = `user-${crypto.randomUUID()}@example.com`;
  const seen = resend(answer);
  const deferred: Promise<unknown>[] = [];
  const sender = createEmailSender(
    createDb(env.DB),
    loadConfig(resendEnv),
    (work) => void deferred.push(work),
    async () => {},
  );
  await sender.send({ to, subject: "Confirm your email", text: "Open the link." });
  await Promise.all(deferred);
  server.resetHandlers();
  return { to, row: await rowTo(to), firstRequests: seen.length };
}

/** Makes the email's next attempt due now (the sweep's clock is the real one). */
const makeDue = (id: string) =>
  env.DB.prepare("update outbox_emails set next_attempt_at = ? where id = ?")
    .bind(new Date(Date.now() - 1000).toISOString(), id)
    .run();

async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }), resendEnv as never, ctx);
  await waitOnExecutionContext(ctx);
}

describe("cron sweep of failed emails", () => {
  it("sends again, when due, an email whose every attempt got a 5xx, with the same Idempotency-Key; admins see it sent and its attempts", async () => {
    const { to, row, firstRequests } = await firstSend(unavailable);
    expect(firstRequests).toBe(EMAIL_ATTEMPTS);
    expect(row).toMatchObject({ delivery_status: "failed", attempts: EMAIL_ATTEMPTS, delivery_error: expect.stringContaining("Resend answered 503") });
    const wait = Date.parse(row.next_attempt_at!) - Date.now();
    expect(wait).toBeGreaterThan(4 * MINUTE);
    expect(wait).toBeLessThanOrEqual(5 * MINUTE);

    // Not yet due: the sweep leaves it.
    const early = resend(accepted);
    await runCron();
    expect(early.filter((r) => r.to === to)).toHaveLength(0);

    await makeDue(row.id);
    const seen = resend(accepted);
    await runCron();
    expect(seen).toEqual([{ key: `email/${row.id}`, to }]);
    expect(await rowTo(to)).toMatchObject({
      delivery_status: "sent",
      provider_message_id: "4ef9a417-02e9-4d39-ad75-9611e0fcc33c",
      attempts: EMAIL_ATTEMPTS + 1,
      next_attempt_at: null,
      delivery_error: null,
    });

    const admin = await adminUser();
    const listed = await json<Record<string, unknown>[]>(await call(`/api/admin/emails?to=${encodeURIComponent(to)}`, { token: admin.accessToken }));
    expect(listed).toEqual([
      expect.objectContaining({ id: row.id, delivery_status: "sent", attempts: EMAIL_ATTEMPTS + 1, delivery_error: null, next_attempt_at: null }),
    ]);
  });

  it("a retry that fails again (429 or 5xx) is scheduled later, each attempt recorded; after the last sweep retry it stays failed, given up", async () => {
    const { to, row } = await firstSend(unavailable);
    let previousWait = 0;
    for (let retry = 1; retry <= EMAIL_SWEEP_RETRIES; retry++) {
      await makeDue(row.id);
      const seen = resend(retry % 2 ? rateLimited : unavailable);
      await runCron();
      expect(seen).toEqual([{ key: `email/${row.id}`, to }]);
      const now = await rowTo(to);
      expect(now.attempts).toBe(EMAIL_ATTEMPTS + retry);
      expect(now.delivery_status).toBe("failed");
      if (retry < EMAIL_SWEEP_RETRIES) {
        const wait = Date.parse(now.next_attempt_at!) - Date.now();
        expect(wait).toBeGreaterThan(previousWait); // backoff
        previousWait = wait;
      } else {
        expect(now.next_attempt_at).toBeNull();
        expect(now.delivery_error).toMatch(/Resend answered 503.*given up after 9 attempts/);
      }
    }
    expect(previousWait).toBeGreaterThan(6 * HOUR);

    // Nothing is due any more: no request.
    const after = resend(accepted);
    await runCron();
    expect(after).toHaveLength(0);
    expect((await rowTo(to)).delivery_status).toBe("failed");
  });

  it("a 4xx other than 429 stays failed for good, with the provider's error, and is never sent again", async () => {
    const refused = () => HttpResponse.json({ name: "validation_error", message: "The example.com domain is not verified." }, { status: 403 });
    const { to, row, firstRequests } = await firstSend(refused);
    expect(firstRequests).toBe(1);
    expect(row).toMatchObject({
      delivery_status: "failed",
      attempts: 1,
      next_attempt_at: null,
      delivery_error: expect.stringContaining("domain is not verified"),
    });

    const seen = resend(accepted);
    await runCron();
    expect(seen).toHaveLength(0);
    expect(await rowTo(to)).toEqual(row);
  });

  it("past Resend's 24 hours of the Idempotency-Key it is not sent again (it might have landed): failed, given up, with the last error", async () => {
    const { to, row } = await firstSend(unavailable);
    await env.DB.prepare("update outbox_emails set created_at = ? where id = ?")
      .bind(new Date(Date.now() - 23.5 * HOUR).toISOString(), row.id)
      .run();
    await makeDue(row.id);
    const seen = resend(accepted);
    await runCron();
    expect(seen).toHaveLength(0);
    expect(await rowTo(to)).toMatchObject({
      delivery_status: "failed",
      attempts: EMAIL_ATTEMPTS,
      next_attempt_at: null,
      delivery_error: expect.stringMatching(/Resend answered 503.*given up after 3 attempts: past Resend's 24 hours/),
    });
  });
});

import { env } from "cloudflare:workers";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../src/db/client";
import { loadConfig } from "../src/env";
import { createEmailSender, EMAIL_ATTEMPTS } from "../src/services/email";
import { dbFirst } from "./helpers";

/**
 * Issue 41, item 1: email through Resend as its API reference documents it
 * (https://resend.com/docs/api-reference/introduction: every request carries a User-Agent, or it
 * is refused 403 / error 1010; https://resend.com/docs/api-reference/emails/send-email: POST
 * /emails {from, to[], subject, text} -> 200 {"id"}; https://resend.com/docs/dashboard/emails/idempotency-keys:
 * an Idempotency-Key header makes a repeated send answer the first email's id for 24 hours).
 * Resend is replayed with MSW; the waits between attempts are recorded, not slept.
 */
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

interface Seen {
  headers: Headers;
  body: { from: string; to: string[]; subject: string; text: string };
}

/** Resend as documented: answers in order from `answers`, records each request; refuses one without a User-Agent as the real one does. */
function resend(answers: (() => Response)[]) {
  const seen: Seen[] = [];
  server.use(
    http.post("https://api.resend.com/emails", async ({ request }) => {
      seen.push({ headers: request.headers, body: (await request.json()) as Seen["body"] });
      if (!request.headers.get("User-Agent")) return HttpResponse.json({ name: "missing_user_agent", message: "error code: 1010" }, { status: 403 });
      return (answers[seen.length - 1] ?? answers.at(-1)!)();
    }),
  );
  return seen;
}

const sent = () => HttpResponse.json({ id: "49a3999c-0ce1-4ea6-ab68-afcd6dc2e794" });

async function send(to: string) {
  const waits: number[] = [];
  const deferred: Promise<unknown>[] = [];
  const config = { ...loadConfig(env), RESEND_API_KEY: "re_test_key", EMAIL_FROM: "Deep Research <no-reply@example.com>" };
  const sender = createEmailSender(
    createDb(env.DB),
    config,
    (work) => void deferred.push(work),
    async (ms) => void waits.push(ms),
  );
  await sender.send({ to, subject: "Confirm your email", text: "Open the link." });
  await Promise.all(deferred);
  const row = await dbFirst<{ id: string; delivery_status: string; provider_message_id: string | null; delivery_error: string | null }>(
    'select id, delivery_status, provider_message_id, delivery_error from outbox_emails where "to" = ?',
    to,
  );
  return { row: row!, waits };
}

const address = () => `user-${crypto.randomUUID()}@example.com`;

describe("email through Resend", () => {
  it("sends the documented request with a User-Agent and the outbox row's Idempotency-Key, and records the email's id", async () => {
    const seen = resend([sent]);
    const to = address();
    const { row } = await send(to);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers.get("User-Agent")).toMatch(/^deep-research-service\//);
    expect(seen[0]!.headers.get("Authorization")).toBe("Bearer re_test_key");
    expect(seen[0]!.headers.get("Idempotency-Key")).toBe(`email/${row.id}`);
    expect(seen[0]!.body).toEqual({ from: "Deep Research <no-reply@example.com>", to: [to], subject: "Confirm your email", text: "Open the link." });
    expect(row).toMatchObject({ delivery_status: "sent", provider_message_id: "49a3999c-0ce1-4ea6-ab68-afcd6dc2e794" });
  });

  it("a 429 and a 5xx are tried again with the same Idempotency-Key, waiting as Retry-After says", async () => {
    const seen = resend([
      () => HttpResponse.json({ message: "Too many requests" }, { status: 429, headers: { "Retry-After": "2" } }),
      () => new HttpResponse(null, { status: 502 }),
      sent,
    ]);
    const { row, waits } = await send(address());
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((request) => request.headers.get("Idempotency-Key")))).toEqual(new Set([`email/${row.id}`]));
    expect(waits).toEqual([2000, 4000]);
    expect(row.delivery_status).toBe("sent");
  });

  it("gives up after its attempts on a provider that keeps failing, and says why on the outbox row", async () => {
    const seen = resend([() => HttpResponse.json({ message: "Internal server error" }, { status: 500 })]);
    const { row } = await send(address());
    expect(seen).toHaveLength(EMAIL_ATTEMPTS);
    expect(row).toMatchObject({ delivery_status: "failed", delivery_error: expect.stringContaining("Resend answered 500") });
  });

  it("a 4xx other than 429 is never tried again (a bad key or sender fails the same way each time)", async () => {
    const seen = resend([() => HttpResponse.json({ name: "validation_error", message: "The from address is not verified" }, { status: 422 })]);
    const { row } = await send(address());
    expect(seen).toHaveLength(1);
    expect(row).toMatchObject({ delivery_status: "failed", delivery_error: expect.stringContaining("not verified") });
  });
});

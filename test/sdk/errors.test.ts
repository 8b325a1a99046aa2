import { afterEach, describe, expect, it } from "vitest";
import {
  AuthenticationError,
  ConflictError,
  ConnectionError,
  DeepResearch,
  DeepResearchError,
  EmailNotVerifiedError,
  InsufficientCreditsError,
  InvalidRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
} from "../../sdk/src/index";
import { error, fakeService } from "./fake-server";

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

/** What one call throws when the service answers `status` with `code` (no retries). */
async function thrownFor(status: number, code: string, headers: Record<string, string> = {}): Promise<unknown> {
  const service = await fakeService([error(status, code, `The ${code} message.`, headers)]);
  close = service.close;
  const client = new DeepResearch({ apiKey: "dr_test_key", baseUrl: service.baseUrl, maxRetries: 0 });
  const thrown = await client.get("0b5f5c3e-6d0e-4a53-9f1f-1d2b2f4b9a11").catch((e: unknown) => e);
  await service.close();
  close = null;
  return thrown;
}

describe("error kinds", () => {
  it("throws the subclass of each kind, with the fields every DeepResearchError has", async () => {
    const kinds: [number, string, abstract new (...args: never[]) => DeepResearchError][] = [
      [400, "invalid_request", InvalidRequestError],
      [400, "impossible_budget", InvalidRequestError],
      [401, "unauthorized", AuthenticationError],
      [402, "insufficient_credits", InsufficientCreditsError],
      [403, "account_suspended", PermissionDeniedError],
      [403, "email_not_verified", EmailNotVerifiedError],
      [404, "not_found", NotFoundError],
      [409, "idempotency_conflict", ConflictError],
      [413, "payload_too_large", InvalidRequestError],
      [415, "unsupported_media_type", InvalidRequestError],
      [422, "idempotency_key_reused", ConflictError],
      [429, "rate_limited", RateLimitError],
      [500, "internal", ServerError],
      [503, "service_unavailable", ServerError],
    ];
    for (const [status, code, Kind] of kinds) {
      const thrown = await thrownFor(status, code, { "Retry-After": "7" });
      expect(thrown, `${status} ${code}`).toBeInstanceOf(Kind);
      expect(thrown).toBeInstanceOf(DeepResearchError);
      expect(thrown).toMatchObject({ name: Kind.name, status, code, message: `The ${code} message.`, requestId: `req-${status}`, retryAfter: 7 });
    }
  });

  it("an unverified email's 403 is a kind of InsufficientCreditsError (the key works; the credits cannot pay yet), not an AuthenticationError", async () => {
    const thrown = await thrownFor(403, "email_not_verified");
    expect(thrown).toBeInstanceOf(InsufficientCreditsError);
    expect(thrown).not.toBeInstanceOf(AuthenticationError);
  });

  it("a suspended account is also an AuthenticationError; a status without a kind stays a plain DeepResearchError", async () => {
    expect(await thrownFor(403, "account_suspended")).toBeInstanceOf(AuthenticationError);
    const other = await thrownFor(405, "method_not_allowed");
    expect(other).toBeInstanceOf(DeepResearchError);
    expect((other as Error).constructor).toBe(DeepResearchError);
  });

  it("an unreachable service is a ConnectionError with status 0 and code network_error", async () => {
    const service = await fakeService([error(500, "internal", "unused")]);
    await service.close();
    const thrown = await new DeepResearch({ apiKey: "dr_test_key", baseUrl: service.baseUrl, maxRetries: 0 }).credits().catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(ConnectionError);
    expect(thrown).toMatchObject({ name: "ConnectionError", status: 0, code: "network_error" });
  });
});

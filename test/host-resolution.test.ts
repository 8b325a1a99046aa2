import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { destinationPolicy, destinationProblem, destinationRefusal, DohResolver } from "../src/lib/host-resolution";
import { DOH_URL, dohHandler, type DohRecord, PUBLIC_ADDRESS } from "./doh";

// Every outbound request is intercepted; an unhandled one fails the test (never the real network).
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const TABLE = {
  "internal-name.example": { addresses: ["127.0.0.1"] },
  "v6-loopback.example": { addresses: ["2606:4700::1111", "::1"] },
  "mixed.example": { addresses: [PUBLIC_ADDRESS, "10.0.0.7"] },
  "metadata-alias.example": { cname: "instance.cloud.example" },
  "instance.cloud.example": { addresses: ["169.254.169.254"] },
  "to-localhost.example": { cname: "localhost" },
  "public-alias.example": { cname: "cdn.example" },
  "gone.example": { status: 3 },
  "servfail.example": { status: 2 },
  "down.example": { httpStatus: 502 },
} as const;

/** A production policy with a fresh resolver (its own cache). */
const production = () => ({ allowLoopback: false, resolver: new DohResolver() });

describe("host names resolved before a request is sent (lib/host-resolution)", () => {
  it("refuses a name any of whose A or AAAA answers is internal, following CNAME chains", async () => {
    const asked: string[] = [];
    server.use(dohHandler(TABLE, asked));
    const policy = production();
    expect(await destinationProblem("internal-name.example", policy)).toBe("a host name that resolves to a loopback address");
    expect(await destinationProblem("v6-loopback.example", policy)).toMatch(/resolves to a loopback address/);
    expect(await destinationProblem("mixed.example", policy)).toMatch(/resolves to a private address/);
    expect(await destinationProblem("metadata-alias.example", policy)).toMatch(/resolves to a link-local or metadata address/);
    expect(await destinationProblem("to-localhost.example", policy)).toMatch(/resolves to a loopback address/);
    expect(await destinationProblem("public-alias.example", policy)).toBeNull();
    expect(await destinationProblem("news.example", policy)).toBeNull();
    expect(asked).toContain("internal-name.example A");
    expect(asked).toContain("internal-name.example AAAA");
    // The resolver answered cdn.example's CNAME alone: its target was asked for.
    expect(asked).toContain("cdn.example A");
  });

  it("fails closed: a name that does not resolve, or whose resolver cannot answer, is refused", async () => {
    server.use(dohHandler(TABLE));
    const policy = production();
    expect(await destinationRefusal("gone.example", policy)).toEqual({ problem: "a host name that does not resolve", unresolved: false });
    expect(await destinationRefusal("servfail.example", policy)).toEqual({ problem: expect.stringMatching(/could not be resolved/), unresolved: true });
    expect(await destinationRefusal("down.example", policy)).toEqual({ problem: expect.stringMatching(/could not be resolved.*HTTP 502/), unresolved: true });
    server.use(http.get(DOH_URL, () => HttpResponse.error()));
    expect(await destinationRefusal("elsewhere.example", policy)).toEqual({ problem: expect.stringMatching(/could not be resolved/), unresolved: true });
  });

  it("asks nothing for IP literals, for hosts refused as written, or in development", async () => {
    const asked: string[] = [];
    server.use(dohHandler(TABLE, asked));
    const policy = production();
    expect(await destinationProblem("8.8.8.8", policy)).toBeNull();
    expect(await destinationProblem("[2606:4700::1111]", policy)).toBeNull();
    expect(await destinationProblem("127.0.0.1", policy)).toMatch(/loopback/);
    expect(await destinationProblem("metadata.google.internal", policy)).toMatch(/metadata/);
    const development = destinationPolicy({ ENVIRONMENT: "development" });
    expect(development).toEqual({ allowLoopback: true, resolver: null });
    expect(await destinationProblem("internal-name.example", development)).toBeNull();
    expect(await destinationProblem("localhost", development)).toBeNull();
    expect(await destinationProblem("10.0.0.1", development)).toMatch(/private/);
    expect(asked).toEqual([]);
  });

  it("production's resolver is the configured endpoint, Cloudflare's by default", async () => {
    const asked: string[] = [];
    server.use(dohHandler(TABLE, asked, "https://doh.internal-test.example/resolve"));
    const configured = destinationPolicy({ ENVIRONMENT: "production", DNS_OVER_HTTPS_URL: "https://doh.internal-test.example/resolve" });
    expect(configured.allowLoopback).toBe(false);
    expect(await destinationProblem("internal-name.example", configured)).toMatch(/loopback/);
    expect(asked).toEqual(["internal-name.example A", "internal-name.example AAAA"]);
    expect(destinationPolicy({ ENVIRONMENT: "production" }).resolver).toBeInstanceOf(DohResolver);
  });

  it("keeps an answer for its TTL, shares concurrent lookups, forgets failures, and holds a bounded number of names", async () => {
    const asked: string[] = [];
    // The handler reads the table at each question: the test changes its entries as it goes.
    const table: Record<string, DohRecord> = { "ttl.example": { addresses: [PUBLIC_ADDRESS], ttl: 60 } };
    server.use(dohHandler(table, asked));
    let now = 1_000_000;
    const resolver = new DohResolver(DOH_URL, { now: () => now, maxEntries: 2 });
    await Promise.all([resolver.addresses("ttl.example"), resolver.addresses("TTL.example.")]);
    expect(asked).toEqual(["ttl.example A", "ttl.example AAAA"]);
    now += 59_000;
    expect(await resolver.addresses("ttl.example")).toEqual([PUBLIC_ADDRESS]);
    expect(asked).toHaveLength(2);
    // Past its TTL the name is asked again, and a rebinding to loopback is seen.
    table["ttl.example"] = { addresses: ["127.0.0.1"], ttl: 60 };
    now += 2_000;
    expect(await resolver.addresses("ttl.example")).toEqual(["127.0.0.1"]);
    expect(asked).toHaveLength(4);
    // A failure is not kept.
    table["flaky.example"] = { httpStatus: 503 };
    await expect(resolver.addresses("flaky.example")).rejects.toThrow(/HTTP 503/);
    delete table["flaky.example"];
    expect(await resolver.addresses("flaky.example")).toEqual([PUBLIC_ADDRESS]);
    // Bounded: two names at most, the oldest dropped.
    await resolver.addresses("third.example");
    const before = asked.length;
    await resolver.addresses("ttl.example");
    expect(asked.length).toBe(before + 2);
  });

  it("keeps a negative answer as long as its SOA says (RFC 2308), not an hour (issue 41)", async () => {
    // The DNS-over-HTTPS JSON of an NXDOMAIN: the zone's SOA in Authority, its last field the negative TTL.
    let asked = 0;
    let soa = true;
    server.use(
      http.get(DOH_URL, () => {
        asked++;
        return HttpResponse.json({
          Status: 3,
          Authority: soa ? [{ name: "example.", type: 6, TTL: 300, data: "ns.example. hostmaster.example. 2026112701 7200 900 1209600 30" }] : [],
        });
      }),
    );
    let now = 1_000_000;
    const resolver = new DohResolver(DOH_URL, { now: () => now });
    expect(await resolver.addresses("missing.example")).toEqual([]);
    expect(asked).toBe(2);
    now += 29_000;
    await resolver.addresses("missing.example");
    expect(asked).toBe(2);
    // Past the SOA's minimum (30 s) the name is asked again: it may exist now.
    now += 2_000;
    soa = false;
    await resolver.addresses("missing.example");
    expect(asked).toBe(4);
    // Without an SOA a "no" is kept a minute.
    now += 59_000;
    await resolver.addresses("missing.example");
    expect(asked).toBe(4);
    now += 2_000;
    await resolver.addresses("missing.example");
    expect(asked).toBe(6);
  });
});

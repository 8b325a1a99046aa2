import { env } from "cloudflare:workers";
import { decodeJwt, type JWTPayload, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/env";
import { toBase64Url } from "../src/lib/crypto";
import { issueAccessToken, JWT_AUDIENCE, JWT_ISSUER } from "../src/services/access-tokens";
import { call, expectError, me, signupUser, type TestUser } from "./helpers";

const config = loadConfig(env);
const secret = new TextEncoder().encode(config.JWT_SECRET);
const now = () => Math.floor(Date.now() / 1000);

/** A user with a live session, and the claims a genuine access token for it carries. */
async function liveSession(): Promise<{ user: TestUser; sid: string }> {
  const user = await signupUser();
  const { sid } = decodeJwt(user.accessToken) as { sid: string };
  return { user, sid };
}

interface ForgeOptions {
  claims?: JWTPayload;
  omit?: string[];
  alg?: string;
  key?: Uint8Array;
}

/** Builds a token like the service's, changing only what `options` says. */
async function forge(user: TestUser, sid: string, options: ForgeOptions = {}): Promise<string> {
  const payload: JWTPayload = {
    typ: "access",
    sid,
    iss: JWT_ISSUER,
    aud: JWT_AUDIENCE,
    sub: user.id,
    iat: now(),
    exp: now() + 900,
    ...options.claims,
  };
  for (const claim of options.omit ?? []) delete payload[claim];
  return new SignJWT(payload).setProtectedHeader({ alg: options.alg ?? "HS256", typ: "JWT" }).sign(options.key ?? secret);
}

function unsigned(header: object, payload: object): string {
  const encode = (part: object) => toBase64Url(new TextEncoder().encode(JSON.stringify(part)));
  return `${encode(header)}.${encode(payload)}.`;
}

async function expectRejected(token: string) {
  await expectError(await me(token), 401, "unauthorized");
}

describe("access tokens on /api/auth/me", () => {
  it("accepts a token built exactly like the service's (the control for every forgery below)", async () => {
    const { user, sid } = await liveSession();
    expect((await me(await forge(user, sid))).status).toBe(200);
  });

  it("accepts a token minted by issueAccessToken for a live session", async () => {
    const { user, sid } = await liveSession();
    const token = await issueAccessToken(config, { userId: user.id, sessionId: sid });
    const response = await me(token);
    expect(response.status).toBe(200);
    expect((await response.json<{ id: string }>()).id).toBe(user.id);
  });

  it("rejects a token signed with another key", async () => {
    const { user, sid } = await liveSession();
    await expectRejected(await forge(user, sid, { key: new TextEncoder().encode("another-secret-that-is-also-32-characters-long") }));
  });

  it("rejects an unsigned token with alg none", async () => {
    const { user, sid } = await liveSession();
    const payload = { typ: "access", sid, iss: JWT_ISSUER, aud: JWT_AUDIENCE, sub: user.id, iat: now(), exp: now() + 900 };
    await expectRejected(unsigned({ alg: "none", typ: "JWT" }, payload));
    await expectRejected(unsigned({ alg: "None" }, payload));
    // The genuine header and payload with the signature stripped.
    const [header, body] = user.accessToken.split(".");
    await expectRejected(`${header}.${body}.`);
  });

  it.each(["HS384", "HS512"])("rejects a token signed with the right secret but alg %s", async (alg) => {
    const { user, sid } = await liveSession();
    await expectRejected(await forge(user, sid, { alg }));
  });

  it("rejects a token with a tampered payload", async () => {
    const { user, sid } = await liveSession();
    const other = await signupUser();
    const [header, , signature] = user.accessToken.split(".");
    const payload = { ...decodeJwt(user.accessToken), sub: other.id };
    const tampered = `${header}.${toBase64Url(new TextEncoder().encode(JSON.stringify(payload)))}.${signature}`;
    await expectRejected(tampered);
    expect(sid).toBeTruthy();
  });

  it("rejects an expired token", async () => {
    const { user, sid } = await liveSession();
    await expectRejected(await forge(user, sid, { claims: { iat: now() - 3600, exp: now() - 60 } }));
  });

  it("rejects a token without exp or without iat", async () => {
    const { user, sid } = await liveSession();
    await expectRejected(await forge(user, sid, { omit: ["exp"] }));
    await expectRejected(await forge(user, sid, { omit: ["iat"] }));
  });

  it("rejects a wrong or missing issuer", async () => {
    const { user, sid } = await liveSession();
    await expectRejected(await forge(user, sid, { claims: { iss: "someone-else" } }));
    await expectRejected(await forge(user, sid, { omit: ["iss"] }));
  });

  it("rejects a wrong or missing audience", async () => {
    const { user, sid } = await liveSession();
    await expectRejected(await forge(user, sid, { claims: { aud: "another-app" } }));
    await expectRejected(await forge(user, sid, { omit: ["aud"] }));
  });

  it("rejects a token without sub", async () => {
    const { user, sid } = await liveSession();
    await expectRejected(await forge(user, sid, { omit: ["sub"] }));
  });

  it("rejects a refresh-typed token and a token without a type", async () => {
    const { user, sid } = await liveSession();
    await expectRejected(await forge(user, sid, { claims: { typ: "refresh" } }));
    await expectRejected(await forge(user, sid, { omit: ["typ"] }));
  });

  it("rejects a token without a session id, or for a session that does not exist", async () => {
    const { user, sid } = await liveSession();
    await expectRejected(await forge(user, sid, { omit: ["sid"] }));
    await expectRejected(await forge(user, crypto.randomUUID()));
  });

  it("rejects a validly signed token naming another user than its session's (no cross-user access)", async () => {
    const a = await liveSession();
    const b = await liveSession();
    await expectRejected(await forge(b.user, a.sid));
    await expectRejected(await forge(a.user, b.sid));
  });

  it.each([
    ["garbage", "not-a-jwt"],
    ["three dots", "a.b.c"],
    ["empty segments", ".."],
    ["an API key", "dr_live_0123456789abcdefghijABCDEFGHIJ01"],
  ])("rejects %s as a bearer token", async (_label, token) => {
    await expectRejected(token);
  });

  it("rejects a missing Authorization header, an empty Bearer, and the Basic scheme", async () => {
    await expectError(await call("/api/auth/me"), 401, "unauthorized");
    await expectError(await call("/api/auth/me", { headers: { Authorization: "Bearer " } }), 401, "unauthorized");
    const { user } = await liveSession();
    await expectError(await call("/api/auth/me", { headers: { Authorization: `Basic ${btoa(`${user.email}:${user.password}`)}` } }), 401, "unauthorized");
    await expectError(await call("/api/auth/me", { headers: { Authorization: `Basic ${user.accessToken}` } }), 401, "unauthorized");
    await expectError(await call("/api/auth/me", { headers: { Authorization: user.accessToken } }), 401, "unauthorized");
  });
});

import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../src/db/client";
import { sha256Hex } from "../src/lib/crypto";
import { authenticateApiKey, touchApiKey } from "../src/services/api-keys";
import { call, createKey, dbFirst, dbRun, expectError, json, signupUser, suspendUser, type TestUser, UUID_PATTERN } from "./helpers";

const API_KEY_DTO_KEYS = ["created_at", "id", "last_used_at", "name", "prefix"];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

function credits(key: string) {
  return call("/v1/credits", { token: key });
}

function listKeys(user: TestUser) {
  return call("/api/keys", { token: user.accessToken });
}

function revoke(user: TestUser, id: string) {
  return call(`/api/keys/${id}`, { method: "DELETE", token: user.accessToken });
}

function reset(user: TestUser, id: string) {
  return call(`/api/keys/${id}/reset`, { method: "POST", token: user.accessToken });
}

async function lastUsedAt(keyId: string): Promise<string | null> {
  return (await dbFirst<{ last_used_at: string | null }>("select last_used_at from api_keys where id = ?", keyId))?.last_used_at ?? null;
}

/** Waits for the background `last_used_at` write of a key to land (it runs after the response). */
async function waitForLastUsedChange(keyId: string, from: string | null): Promise<string | null> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const value = await lastUsedAt(keyId);
    if (value !== from) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return from;
}

describe("POST /api/keys", () => {
  it("creates a key: 200 CreatedKey whose plaintext is dr_live_... and whose prefix is its start", async () => {
    const user = await signupUser();
    const response = await call("/api/keys", { token: user.accessToken, body: { name: "  ci server " } });
    expect(response.status).toBe(200);
    const key = await json(response);
    expect(Object.keys(key).sort()).toEqual([...API_KEY_DTO_KEYS, "plaintext"].sort());
    expect(key.id).toMatch(UUID_PATTERN);
    expect(key.name).toBe("ci server");
    expect(key.plaintext).toMatch(/^dr_live_[0-9A-Za-z]{20,}$/);
    expect(key.prefix.length).toBeGreaterThan("dr_live_".length);
    expect(key.prefix.length).toBeLessThan(key.plaintext.length);
    expect(key.plaintext.startsWith(key.prefix)).toBe(true);
    expect(key.created_at).toMatch(ISO);
    expect(key.last_used_at).toBeNull();
  });

  it("stores only the SHA-256 of the key, never the plaintext", async () => {
    const user = await signupUser();
    const key = await createKey(user);
    const row = await dbFirst<Record<string, unknown>>("select * from api_keys where id = ?", key.id);
    expect(row?.key_hash).toBe(await sha256Hex(key.plaintext));
    expect(JSON.stringify(row)).not.toContain(key.plaintext);
  });

  it("makes the name optional: a key created without one is named after its prefix, in create, list and reset", async () => {
    const user = await signupUser();
    for (const body of [{}, { name: null }]) {
      const response = await call("/api/keys", { token: user.accessToken, body });
      expect(response.status).toBe(200);
      const key = await json(response);
      expect(key.name).toBe(`Key ${key.prefix}`);
      const listed = (await json(await call("/api/keys", { token: user.accessToken }))).find((entry: { id: string }) => entry.id === key.id);
      expect(listed.name).toBe(`Key ${key.prefix}`);
      const reset = await json(await call(`/api/keys/${key.id}/reset`, { method: "POST", token: user.accessToken }));
      expect(reset.prefix).not.toBe(key.prefix);
      expect(reset.name).toBe(`Key ${reset.prefix}`);
    }
    // A name the user gave survives a reset.
    const named = await json(await call("/api/keys", { token: user.accessToken, body: { name: "ci server" } }));
    expect((await json(await call(`/api/keys/${named.id}/reset`, { method: "POST", token: user.accessToken }))).name).toBe("ci server");
  });

  it("refuses a name that is empty or only whitespace with 400, and creates no key (issue 39)", async () => {
    const user = await signupUser();
    for (const name of ["", "   ", "\t\n ", "\u00a0\u2003"]) {
      const body = await expectError(await call("/api/keys", { token: user.accessToken, body: { name } }), 400, "invalid_request");
      expect(JSON.stringify(body.error)).toMatch(/whitespace/);
    }
    expect(await json(await call("/api/keys", { token: user.accessToken }))).toEqual([]);
  });

  it("gives every key a different plaintext", async () => {
    const user = await signupUser();
    const a = await createKey(user);
    const b = await createKey(user);
    expect(a.plaintext).not.toBe(b.plaintext);
    expect(a.id).not.toBe(b.id);
  });

  it("answers 400 for an over-long or non-string name, or an unknown field", async () => {
    const user = await signupUser();
    await expectError(await call("/api/keys", { token: user.accessToken, body: { name: "n".repeat(101) } }), 400, "invalid_request");
    await expectError(await call("/api/keys", { token: user.accessToken, body: { name: 7 } }), 400, "invalid_request");
    await expectError(await call("/api/keys", { token: user.accessToken, body: { name: "x", scope: "all" } }), 400, "invalid_request");
  });

  it("answers 401 without a JWT, and does not accept an API key in its place", async () => {
    await expectError(await call("/api/keys", { body: { name: "x" } }), 401, "unauthorized");
    const user = await signupUser();
    const key = await createKey(user);
    await expectError(await call("/api/keys", { token: key.plaintext, body: { name: "x" } }), 401, "unauthorized");
    await expectError(await call("/api/keys", { token: key.plaintext }), 401, "unauthorized");
  });
});

describe("GET /api/keys", () => {
  it("lists the caller's live keys, newest first, never with the plaintext or hash", async () => {
    const user = await signupUser();
    const first = await createKey(user, "first");
    // Two keys made in the same millisecond would tie; age the first one so the order is certain.
    await dbRun("update api_keys set created_at = ? where id = ?", new Date(Date.now() - 60_000).toISOString(), first.id);
    const second = await createKey(user, "second");
    const response = await listKeys(user);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain(first.plaintext);
    expect(text).not.toContain(second.plaintext);
    expect(text).not.toContain(await sha256Hex(first.plaintext));
    const keys = JSON.parse(text) as Array<Record<string, unknown>>;
    expect(keys.map((k) => k.id)).toEqual([second.id, first.id]);
    for (const key of keys) expect(Object.keys(key).sort()).toEqual(API_KEY_DTO_KEYS);
    expect(keys[1]).toMatchObject({ name: "first", prefix: first.plaintext.slice(0, String(keys[1]!.prefix).length) });
  });

  it("lists only the caller's keys", async () => {
    const a = await signupUser();
    const b = await signupUser();
    const aKey = await createKey(a);
    const bKey = await createKey(b);
    const aList = (await json(await listKeys(a))) as Array<{ id: string }>;
    const bList = (await json(await listKeys(b))) as Array<{ id: string }>;
    expect(aList.map((k) => k.id)).toEqual([aKey.id]);
    expect(bList.map((k) => k.id)).toEqual([bKey.id]);
  });

  it("answers an empty list for a user without keys, and 401 without a token", async () => {
    const user = await signupUser();
    expect(await json(await listKeys(user))).toEqual([]);
    await expectError(await call("/api/keys"), 401, "unauthorized");
  });
});

describe("GET /v1/credits with an API key", () => {
  it("answers the owner's BalanceDto", async () => {
    const user = await signupUser();
    const key = await createKey(user);
    const response = await credits(key.plaintext);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ credits: 500, usd: "5.00" });
  });

  it("matches GET /api/credits/balance with the JWT", async () => {
    const user = await signupUser();
    const key = await createKey(user);
    await dbRun("update users set credits = 1234 where id = ?", user.id);
    const viaKey = await json(await credits(key.plaintext));
    const viaJwt = await call("/api/credits/balance", { token: user.accessToken });
    expect(viaJwt.status).toBe(200);
    expect(await json(viaJwt)).toEqual(viaKey);
    expect(viaKey).toEqual({ credits: 1234, usd: "12.34" });
  });

  it.each([
    ["no Authorization header", undefined],
    ["an unknown key of the right shape", "dr_live_00000000000000000000000000000000"],
    ["garbage", "not-a-key"],
    ["a truncated key", "dr_live_abc"],
  ])("answers 401 unauthorized for %s", async (_label, token) => {
    await expectError(await call("/v1/credits", { token }), 401, "unauthorized");
  });

  it("answers 401 for a JWT in place of an API key, and for the Basic scheme", async () => {
    const user = await signupUser();
    const key = await createKey(user);
    await expectError(await credits(user.accessToken), 401, "unauthorized");
    await expectError(await call("/v1/credits", { headers: { Authorization: `Basic ${key.plaintext}` } }), 401, "unauthorized");
    await expectError(await call("/v1/credits", { headers: { Authorization: key.plaintext } }), 401, "unauthorized");
  });

  it("answers 401 for a key with one character changed", async () => {
    const user = await signupUser();
    const key = await createKey(user);
    const last = key.plaintext.at(-1)!;
    await expectError(await credits(key.plaintext.slice(0, -1) + (last === "a" ? "b" : "a")), 401, "unauthorized");
  });

  it("answers 403 account_suspended for a suspended user's key, and for their JWT", async () => {
    const user = await signupUser();
    const key = await createKey(user);
    await suspendUser(user.id);
    await expectError(await credits(key.plaintext), 403, "account_suspended");
    await expectError(await call("/api/credits/balance", { token: user.accessToken }), 403, "account_suspended");
    await expectError(await listKeys(user), 403, "account_suspended");
  });
});

describe("DELETE /api/keys/{id}", () => {
  it("revokes: 200 with no body, then the key is 401 and gone from the list", async () => {
    const user = await signupUser();
    const key = await createKey(user);
    const kept = await createKey(user, "kept");
    expect((await credits(key.plaintext)).status).toBe(200);
    const response = await revoke(user, key.id);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
    await expectError(await credits(key.plaintext), 401, "unauthorized");
    expect(((await json(await listKeys(user))) as Array<{ id: string }>).map((k) => k.id)).toEqual([kept.id]);
    expect((await credits(kept.plaintext)).status).toBe(200);
  });

  it("answers 404 for a key already revoked and for an unknown id", async () => {
    const user = await signupUser();
    const key = await createKey(user);
    expect((await revoke(user, key.id)).status).toBe(200);
    await expectError(await revoke(user, key.id), 404, "not_found");
    await expectError(await revoke(user, crypto.randomUUID()), 404, "not_found");
  });

  it("answers 400 for a malformed id", async () => {
    const user = await signupUser();
    await expectError(await revoke(user, "not-a-uuid"), 400, "invalid_request");
  });

  it("answers 401 without a token", async () => {
    await expectError(await call(`/api/keys/${crypto.randomUUID()}`, { method: "DELETE" }), 401, "unauthorized");
  });
});

describe("POST /api/keys/{id}/reset", () => {
  it("replaces the secret: same id and name, the old plaintext is 401 at once, the new one works", async () => {
    const user = await signupUser();
    const key = await createKey(user, "rotating");
    expect((await credits(key.plaintext)).status).toBe(200);
    const response = await reset(user, key.id);
    expect(response.status).toBe(200);
    const fresh = await json(response);
    expect(Object.keys(fresh).sort()).toEqual([...API_KEY_DTO_KEYS, "plaintext"].sort());
    expect(fresh.id).toBe(key.id);
    expect(fresh.name).toBe("rotating");
    expect(fresh.plaintext).toMatch(/^dr_live_/);
    expect(fresh.plaintext).not.toBe(key.plaintext);
    expect(fresh.plaintext.startsWith(fresh.prefix)).toBe(true);
    await expectError(await credits(key.plaintext), 401, "unauthorized");
    expect((await credits(fresh.plaintext)).status).toBe(200);
    expect(((await json(await listKeys(user))) as Array<{ id: string }>).map((k) => k.id)).toEqual([key.id]);
  });

  it("answers 404 for a revoked key and for an unknown id, 400 for a malformed id", async () => {
    const user = await signupUser();
    const key = await createKey(user);
    expect((await revoke(user, key.id)).status).toBe(200);
    await expectError(await reset(user, key.id), 404, "not_found");
    await expectError(await reset(user, crypto.randomUUID()), 404, "not_found");
    await expectError(await reset(user, "123"), 400, "invalid_request");
  });

  it("answers 401 without a token", async () => {
    await expectError(await call(`/api/keys/${crypto.randomUUID()}/reset`, { method: "POST" }), 401, "unauthorized");
  });
});

describe("cross-user isolation", () => {
  it("another user can neither revoke nor reset a key (404), and the owner's key keeps working", async () => {
    const owner = await signupUser();
    const intruder = await signupUser();
    const key = await createKey(owner);
    await expectError(await revoke(intruder, key.id), 404, "not_found");
    await expectError(await reset(intruder, key.id), 404, "not_found");
    const response = await credits(key.plaintext);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ credits: 500, usd: "5.00" });
    expect(((await json(await listKeys(owner))) as Array<{ id: string }>).map((k) => k.id)).toEqual([key.id]);
  });

  it("a key answers its own owner's balance, not another user's", async () => {
    const a = await signupUser();
    const b = await signupUser();
    await dbRun("update users set credits = 7 where id = ?", b.id);
    const aKey = await createKey(a);
    const bKey = await createKey(b);
    expect(await json(await credits(aKey.plaintext))).toEqual({ credits: 500, usd: "5.00" });
    expect(await json(await credits(bKey.plaintext))).toEqual({ credits: 7, usd: "0.07" });
  });
});

describe("last_used_at", () => {
  it("is written on first use, shown in the list, and not rewritten within a minute", async () => {
    const user = await signupUser();
    const key = await createKey(user);
    const other = await createKey(user, "other");
    expect(await lastUsedAt(key.id)).toBeNull();

    expect((await credits(key.plaintext)).status).toBe(200);
    const firstUse = await waitForLastUsedChange(key.id, null);
    expect(firstUse).toMatch(ISO);
    const listed = (await json(await listKeys(user))) as Array<{ id: string; last_used_at: string | null }>;
    expect(listed.find((k) => k.id === key.id)?.last_used_at).toBe(firstUse);

    expect((await credits(key.plaintext)).status).toBe(200);
    // A later request's write (for another key) has landed, so the earlier one would have too.
    expect((await credits(other.plaintext)).status).toBe(200);
    expect(await waitForLastUsedChange(other.id, null)).toMatch(ISO);
    expect(await lastUsedAt(key.id)).toBe(firstUse);
  });

  it("is rewritten once the last write is more than a minute old", async () => {
    const user = await signupUser();
    const key = await createKey(user);
    const old = new Date(Date.now() - 2 * 60_000).toISOString();
    await dbRun("update api_keys set last_used_at = ? where id = ?", old, key.id);
    expect((await credits(key.plaintext)).status).toBe(200);
    const updated = await waitForLastUsedChange(key.id, old);
    expect(updated).not.toBe(old);
    expect(Date.parse(updated!)).toBeGreaterThan(Date.parse(old));
  });

  it("touchApiKey skips a write within the minute and writes after it", async () => {
    const user = await signupUser();
    const key = await createKey(user);
    const db = createDb(env.DB);
    const found = await authenticateApiKey(db, key.plaintext);
    expect(found?.user.id).toBe(user.id);
    expect(touchApiKey(db, { ...found!, lastUsedAt: new Date(Date.now() - 30_000).toISOString() })).toBeNull();
    const write = touchApiKey(db, { ...found!, lastUsedAt: new Date(Date.now() - 61_000).toISOString() });
    expect(write).not.toBeNull();
    await write;
    expect(await lastUsedAt(key.id)).toMatch(ISO);
  });
});

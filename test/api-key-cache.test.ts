import { afterEach, describe, expect, it, vi } from "vitest";
import { FinishedResults } from "../src/research/job/finished-results";
import type { ResearchResult } from "../src/research/job/job-state";
import { VERIFIED_KEY_TTL_MS, type VerifiedKey, VerifiedKeyCache } from "../src/services/verified-keys";
import { adminUser, call, createKey, dbRun, expectError, insertJob, json, signupUser } from "./helpers";
import { apiCaller, ensureCorpus, research } from "./research/helpers";

// The hot path of /v1 (issue 31): an isolate trusts a key it verified for VERIFIED_KEY_TTL_MS and
// serves a finished job's result from memory. These tests hold what that may and may not change.

const credits = (key: string) => call("/v1/credits", { token: key });

/** What another isolate's change looks like to this one: the row changes, this isolate's cache is not told. */
const revokeElsewhere = (keyId: string) => dbRun("update api_keys set revoked_at = ? where id = ?", new Date().toISOString(), keyId);
const suspendElsewhere = (userId: string) => dbRun("update users set suspended_at = ? where id = ?", new Date().toISOString(), userId);

afterEach(() => {
  vi.useRealTimers();
});

describe("a verified key, held by the isolate for VERIFIED_KEY_TTL_MS", () => {
  it("revoked by another isolate: works at most VERIFIED_KEY_TTL_MS longer here, then 401", async () => {
    const user = await signupUser();
    const key = await createKey(user);
    expect((await credits(key.plaintext)).status).toBe(200); // verified and held
    vi.useFakeTimers({ toFake: ["Date"] });
    await revokeElsewhere(key.id);
    expect((await credits(key.plaintext)).status).toBe(200); // the stated delay, not longer:
    vi.setSystemTime(Date.now() + VERIFIED_KEY_TTL_MS);
    await expectError(await credits(key.plaintext), 401, "unauthorized");
  });

  it("suspended by another isolate: 403 account_suspended after at most VERIFIED_KEY_TTL_MS", async () => {
    const user = await signupUser();
    const key = await createKey(user);
    expect((await credits(key.plaintext)).status).toBe(200);
    vi.useFakeTimers({ toFake: ["Date"] });
    await suspendElsewhere(user.id);
    vi.setSystemTime(Date.now() + VERIFIED_KEY_TTL_MS);
    await expectError(await credits(key.plaintext), 403, "account_suspended");
  });

  it("revoked, reset or suspended through this isolate: refused at once", async () => {
    const user = await signupUser();
    const [revoked, reset] = [await createKey(user), await createKey(user)];
    for (const key of [revoked, reset]) expect((await credits(key.plaintext)).status).toBe(200);
    expect((await call(`/api/keys/${revoked.id}`, { method: "DELETE", token: user.accessToken })).status).toBe(200);
    await expectError(await credits(revoked.plaintext), 401, "unauthorized");
    expect((await call(`/api/keys/${reset.id}/reset`, { method: "POST", token: user.accessToken })).status).toBe(200);
    await expectError(await credits(reset.plaintext), 401, "unauthorized");

    const other = await signupUser();
    const key = await createKey(other);
    expect((await credits(key.plaintext)).status).toBe(200);
    const admin = await adminUser();
    expect((await call(`/api/admin/users/${other.id}/suspend`, { method: "POST", token: admin.accessToken })).status).toBe(200);
    await expectError(await credits(key.plaintext), 403, "account_suspended");
  });

  it("never holds the balance: /v1/credits shows a change at once while the key is held", async () => {
    const user = await signupUser();
    const key = await createKey(user);
    expect(await json(await credits(key.plaintext))).toEqual({ credits: 500, usd: "5.00" });
    await dbRun("update users set credits = 77 where id = ?", user.id);
    expect(await json(await credits(key.plaintext))).toEqual({ credits: 77, usd: "0.77" });
  });

  it("a key made a moment ago works at once (unknown keys are never held)", async () => {
    const user = await signupUser();
    await expectError(await credits(`dr_live_${"Z".repeat(32)}`), 401, "unauthorized");
    const key = await createKey(user);
    expect((await credits(key.plaintext)).status).toBe(200);
  });
});

describe("a finished job's result, served from the isolate's memory once read", () => {
  it("answers the owner the same result every time, and anyone else 404", async () => {
    await ensureCorpus();
    const [owner, stranger] = [await apiCaller(), await apiCaller()];
    const finished = await research(owner, { question: "What was the Tariff of 1828?", mode: "lite" });
    expect(finished.status).toBe(200);
    const { id } = await json(finished);
    const first = await json(await call(`/v1/research/${id}`, { token: owner.key }));
    expect(first).toMatchObject({ id, status: "succeeded" });
    expect(await json(await call(`/v1/research/${id}`, { token: owner.key }))).toEqual(first);
    await expectError(await call(`/v1/research/${id}`, { token: stranger.key }), 404, "not_found");
  });

  it("keeps asking for a job that is still open", async () => {
    const owner = await signupUser();
    const key = await createKey(owner);
    const id = await insertJob(owner.id, { status: "running" });
    expect((await json(await call(`/v1/research/${id}`, { token: key.plaintext }))).status).toBe("running");
    await dbRun("update research_jobs set status = 'failed', error = 'gone', result_json = null where id = ?", id);
    expect((await json(await call(`/v1/research/${id}`, { token: key.plaintext }))).status).toBe("failed");
  });
});

describe("VerifiedKeyCache", () => {
  const key = (keyId: string, userId: string): VerifiedKey => ({ keyId, lastUsedAt: null, user: { id: userId } as VerifiedKey["user"] });

  it("holds a key for its TTL, then forgets it", () => {
    let now = 0;
    const cache = new VerifiedKeyCache(5_000, 10, () => now);
    cache.set("h1", key("k1", "u1"));
    now = 4_999;
    expect(cache.get("h1")?.keyId).toBe("k1");
    now = 5_000;
    expect(cache.get("h1")).toBeUndefined();
  });

  it("lets go of expired keys at the next set, so none stays in memory long past its TTL", () => {
    let now = 0;
    const cache = new VerifiedKeyCache(5_000, 10, () => now);
    cache.set("h1", key("k1", "u1"));
    cache.set("h2", key("k2", "u2"));
    now = 5_000;
    cache.set("h3", key("k3", "u3"));
    expect(cache.size).toBe(1);
  });

  it("forgets by key and by user, and drops the oldest past its bound", () => {
    const cache = new VerifiedKeyCache(5_000, 2, () => 0);
    cache.set("h1", key("k1", "u1"));
    cache.set("h2", key("k2", "u2"));
    cache.set("h3", key("k3", "u2"));
    expect(cache.get("h1")).toBeUndefined(); // bound of 2: the oldest went
    cache.forgetUser("u2");
    expect([cache.get("h2"), cache.get("h3")]).toEqual([undefined, undefined]);
    cache.set("h4", key("k4", "u4"));
    cache.forgetKey("k4");
    expect(cache.get("h4")).toBeUndefined();
  });
});

describe("FinishedResults", () => {
  const result = (id: string) => ({ id }) as ResearchResult;

  it("serves only the owner", () => {
    const cache = new FinishedResults(1_000);
    cache.set("u1", "j1", result("j1"), 10);
    expect(cache.get("u1", "j1")?.id).toBe("j1");
    expect(cache.get("u2", "j1")).toBeUndefined();
  });

  it("stays within its bytes, the least recently read out first, and skips a result too big to keep", () => {
    const cache = new FinishedResults(900);
    cache.set("u", "a", result("a"), 200);
    cache.set("u", "b", result("b"), 200);
    cache.get("u", "a"); // a was read last: b is the oldest now
    for (const id of ["c", "d", "e"]) cache.set("u", id, result(id), 200);
    expect(cache.get("u", "b")).toBeUndefined();
    expect(["a", "c", "d", "e"].map((id) => cache.get("u", id)?.id)).toEqual(["a", "c", "d", "e"]);
    cache.set("u", "huge", result("huge"), 300); // over a quarter of the bound
    expect(cache.get("u", "huge")).toBeUndefined();
  });
});

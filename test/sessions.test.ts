import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../src/db/client";
import { loadConfig } from "../src/env";
import { sha256Hex } from "../src/lib/crypto";
import { findUserWithLiveSession, refreshSession, startSession } from "../src/services/sessions";
import { call, dbRun, expectError, json, login, me, refresh, signupUser, suspendUser } from "./helpers";

function logout(refreshToken: string) {
  return call("/api/auth/logout", { body: { refresh_token: refreshToken } });
}

async function refreshOk(refreshToken: string): Promise<{ access_token: string; refresh_token: string; user: { id: string } }> {
  const response = await refresh(refreshToken);
  expect(response.status).toBe(200);
  return json(response);
}

describe("POST /api/auth/refresh", () => {
  it("returns a new token pair for the same user, and the old refresh token then fails", async () => {
    const user = await signupUser();
    const next = await refreshOk(user.refreshToken);
    expect(Object.keys(next).sort()).toEqual(["access_token", "expires_in", "refresh_token", "user"]);
    expect(next.user.id).toBe(user.id);
    expect(next.refresh_token).not.toBe(user.refreshToken);
    const meResponse = await me(next.access_token);
    expect(meResponse.status).toBe(200);
    expect((await json(meResponse)).id).toBe(user.id);

    await expectError(await refresh(user.refreshToken), 401, "unauthorized");
  });

  it("keeps rotating: each new refresh token works exactly once", async () => {
    const user = await signupUser();
    let token = user.refreshToken;
    for (let i = 0; i < 3; i++) token = (await refreshOk(token)).refresh_token;
    const last = await refreshOk(token);
    expect((await me(last.access_token)).status).toBe(200);
  });

  it("treats reuse of a rotated token as theft: 401, and the whole session family is revoked", async () => {
    const user = await signupUser();
    const second = await refreshOk(user.refreshToken);
    const third = await refreshOk(second.refresh_token);
    expect((await me(third.access_token)).status).toBe(200);

    await expectError(await refresh(user.refreshToken), 401, "unauthorized");

    // The newest token of the family and every access token issued for it are dead too.
    await expectError(await refresh(third.refresh_token), 401, "unauthorized");
    await expectError(await me(third.access_token), 401, "unauthorized");
    await expectError(await me(second.access_token), 401, "unauthorized");
    await expectError(await me(user.accessToken), 401, "unauthorized");
  });

  it("revoking one family on reuse leaves the user's other sessions alone", async () => {
    const user = await signupUser();
    const other = await json(await login(user.email, user.password));
    await refreshOk(user.refreshToken);
    await expectError(await refresh(user.refreshToken), 401, "unauthorized");
    expect((await me(other.access_token)).status).toBe(200);
    expect((await refresh(other.refresh_token)).status).toBe(200);
  });

  it("concurrent refreshes with one token never yield two live sessions", async () => {
    for (let round = 0; round < 3; round++) {
      const user = await signupUser();
      const responses = await Promise.all(Array.from({ length: 5 }, () => refresh(user.refreshToken)));
      const statuses = responses.map((r) => r.status);
      const winners = await Promise.all(responses.filter((r) => r.status === 200).map((r) => json(r)));
      expect(winners.length).toBeLessThanOrEqual(1);
      expect(statuses.filter((s) => s !== 200).every((s) => s === 401)).toBe(true);

      // Every loser saw the token already spent, which is reuse: the family (winner included) is revoked.
      const live = await Promise.all(winners.map(async (w) => (await me(w.access_token)).status === 200));
      expect(live.filter(Boolean)).toEqual([]);
      for (const winner of winners) await expectError(await refresh(winner.refresh_token), 401, "unauthorized");
      await expectError(await me(user.accessToken), 401, "unauthorized");
    }
  });

  it("a refresh that loses the race revokes the winner's new token too (the winner paused right after spending the token)", async () => {
    const user = await signupUser();
    const db = createDb(env.DB);
    const config = loadConfig(env);
    const session = await startSession(db, config, user.id);
    const familyId = (JSON.parse(atob(session.accessToken.split(".")[1]!)) as { sid: string }).sid;

    // The winner's database pauses once its "spend the token" update has run, while the loser
    // presents the same token (reuse) and revokes the family; then the winner carries on.
    let loser: Promise<unknown> | undefined;
    const winnerDb = createDb(
      pauseAfter(env.DB, /^update "refresh_tokens" set "rotated_at"/, async () => {
        loser = refreshSession(db, config, session.refreshToken).catch((error: unknown) => error);
        await loser;
      }),
    );
    const winner = await refreshSession(winnerDb, config, session.refreshToken).catch(() => null);
    expect(loser).toBeDefined();
    expect(await loser).toMatchObject({ code: "unauthorized" });

    // Whatever the winner was handed, the family is dead: no access or refresh token of it works.
    expect(await findUserWithLiveSession(db, user.id, familyId)).toBeUndefined();
    if (winner) {
      await expectError(await refresh(winner.refreshToken), 401, "unauthorized");
      await expectError(await me(winner.accessToken), 401, "unauthorized");
    }
  });

  it("answers 401 for an expired refresh token", async () => {
    const user = await signupUser();
    await dbRun("update refresh_tokens set expires_at = ? where token_hash = ?", new Date(Date.now() - 1000).toISOString(), await sha256Hex(user.refreshToken));
    await expectError(await refresh(user.refreshToken), 401, "unauthorized");
  });

  it("answers 401 for an unknown refresh token", async () => {
    await expectError(await refresh("rt_this-token-was-never-issued"), 401, "unauthorized");
  });

  it("answers 400 for a missing or empty refresh_token", async () => {
    await expectError(await call("/api/auth/refresh", { body: {} }), 400, "invalid_request");
    await expectError(await call("/api/auth/refresh", { body: { refresh_token: "" } }), 400, "invalid_request");
    await expectError(await call("/api/auth/refresh", { body: { refresh_token: 42 } }), 400, "invalid_request");
  });

  it("answers 403 account_suspended for a suspended user", async () => {
    const user = await signupUser();
    await suspendUser(user.id);
    await expectError(await refresh(user.refreshToken), 403, "account_suspended");
  });

  it("does not accept an access token as a refresh token", async () => {
    const user = await signupUser();
    await expectError(await refresh(user.accessToken), 401, "unauthorized");
  });
});

describe("POST /api/auth/logout", () => {
  it("ends the session: 200 with no body, then its refresh and access tokens are 401", async () => {
    const user = await signupUser();
    const response = await logout(user.refreshToken);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
    await expectError(await refresh(user.refreshToken), 401, "unauthorized");
    await expectError(await me(user.accessToken), 401, "unauthorized");
  });

  it("ends the whole session, including tokens issued by earlier refreshes", async () => {
    const user = await signupUser();
    const next = await refreshOk(user.refreshToken);
    expect((await logout(user.refreshToken)).status).toBe(200);
    await expectError(await me(next.access_token), 401, "unauthorized");
    await expectError(await refresh(next.refresh_token), 401, "unauthorized");
  });

  it("leaves the user's other sessions working", async () => {
    const user = await signupUser();
    const second = await json(await login(user.email, user.password));
    expect((await logout(user.refreshToken)).status).toBe(200);
    expect((await me(second.access_token)).status).toBe(200);
    expect((await refresh(second.refresh_token)).status).toBe(200);
  });

  it("answers 200 for an unknown token and 400 for a missing one", async () => {
    expect((await logout("rt_unknown-token")).status).toBe(200);
    await expectError(await call("/api/auth/logout", { body: {} }), 400, "invalid_request");
  });
});

/** A D1 binding that runs `hook` (once) right after the first statement matching `pattern` completes. */
function pauseAfter(d1: D1Database, pattern: RegExp, hook: () => Promise<void>): D1Database {
  let fired = false;
  const wrapStatement = (statement: D1PreparedStatement, sql: string): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (typeof value !== "function") return value;
        if (property === "bind") return (...params: unknown[]) => wrapStatement((value as Function).apply(target, params), sql);
        if (property === "all" || property === "run" || property === "raw" || property === "first") {
          return async (...args: unknown[]) => {
            const result = await (value as Function).apply(target, args);
            if (!fired && pattern.test(sql)) {
              fired = true;
              await hook();
            }
            return result;
          };
        }
        return (value as Function).bind(target);
      },
    });
  return new Proxy(d1, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (property === "prepare") return (sql: string) => wrapStatement(target.prepare(sql), sql);
      return typeof value === "function" ? (value as Function).bind(target) : value;
    },
  });
}

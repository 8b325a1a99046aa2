import { describe, expect, it } from "vitest";
import { call, dbRun, expectError, json, login, me, refresh, signupUser, type TestUser } from "./helpers";

function changePassword(token: string | undefined, body: unknown) {
  return call("/api/settings/password", { method: "PUT", token, body });
}

function updateProfile(token: string | undefined, body: unknown) {
  return call("/api/settings/profile", { method: "PUT", token, body });
}

function setMarketing(token: string | undefined, body: unknown) {
  return call("/api/settings/marketing", { method: "PUT", token, body });
}

async function meBody(user: TestUser) {
  const response = await me(user.accessToken);
  expect(response.status).toBe(200);
  return json(response);
}

describe("PUT /api/settings/password", () => {
  it("changes the password: the new one logs in, the old one does not", async () => {
    const user = await signupUser();
    const response = await changePassword(user.accessToken, { current_password: user.password, new_password: "a new password 1" });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
    expect((await login(user.email, "a new password 1")).status).toBe(200);
    await expectError(await login(user.email, user.password), 401, "invalid_credentials");
  });

  it("ends the user's other sessions but keeps the current one", async () => {
    const user = await signupUser();
    const other = await json(await login(user.email, user.password));
    expect((await changePassword(user.accessToken, { current_password: user.password, new_password: "a new password 1" })).status).toBe(200);

    await expectError(await me(other.access_token), 401, "unauthorized");
    await expectError(await refresh(other.refresh_token), 401, "unauthorized");

    expect((await me(user.accessToken)).status).toBe(200);
    const refreshed = await refresh(user.refreshToken);
    expect(refreshed.status).toBe(200);
    expect((await me((await json(refreshed)).access_token)).status).toBe(200);
  });

  it("answers 401 invalid_credentials for a wrong current password and keeps the old one", async () => {
    const user = await signupUser();
    await expectError(
      await changePassword(user.accessToken, { current_password: "not my password", new_password: "a new password 1" }),
      401,
      "invalid_credentials",
    );
    expect((await login(user.email, user.password)).status).toBe(200);
    expect((await me(user.accessToken)).status).toBe(200);
  });

  it("answers 400 for a new password shorter than 8 or longer than 128 characters", async () => {
    const user = await signupUser();
    await expectError(await changePassword(user.accessToken, { current_password: user.password, new_password: "short" }), 400, "invalid_request");
    await expectError(await changePassword(user.accessToken, { current_password: user.password, new_password: "p".repeat(129) }), 400, "invalid_request");
    expect((await login(user.email, user.password)).status).toBe(200);
  });

  it("answers 400 when the account has no password set", async () => {
    const user = await signupUser();
    await dbRun("update users set password_hash = null where id = ?", user.id);
    await expectError(await changePassword(user.accessToken, { current_password: user.password, new_password: "a new password 1" }), 400, "invalid_request");
  });

  it("answers 400 for missing fields", async () => {
    const user = await signupUser();
    await expectError(await changePassword(user.accessToken, { new_password: "a new password 1" }), 400, "invalid_request");
    await expectError(await changePassword(user.accessToken, { current_password: user.password }), 400, "invalid_request");
  });

  it("answers 401 without a valid token", async () => {
    await expectError(await changePassword(undefined, { current_password: "whatever1", new_password: "a new password 1" }), 401, "unauthorized");
    await expectError(await changePassword("garbage", { current_password: "whatever1", new_password: "a new password 1" }), 401, "unauthorized");
  });
});

describe("PUT /api/settings/profile", () => {
  it("saves the name (trimmed), reflected in /me", async () => {
    const user = await signupUser();
    const response = await updateProfile(user.accessToken, { first_name: "  Grace ", last_name: "Hopper" });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
    expect(await meBody(user)).toMatchObject({ first_name: "Grace", last_name: "Hopper" });
  });

  it("accepts empty names and names of exactly 100 characters", async () => {
    const user = await signupUser();
    expect((await updateProfile(user.accessToken, { first_name: "", last_name: "" })).status).toBe(200);
    expect(await meBody(user)).toMatchObject({ first_name: "", last_name: "" });
    expect((await updateProfile(user.accessToken, { first_name: "f".repeat(100), last_name: "l".repeat(100) })).status).toBe(200);
    expect((await meBody(user)).first_name).toHaveLength(100);
  });

  it("answers 400 for an over-long, missing, null or non-string field and changes nothing", async () => {
    const user = await signupUser();
    for (const body of [
      { first_name: "a".repeat(101), last_name: "Hopper" },
      { first_name: "Grace", last_name: "b".repeat(101) },
      { first_name: "Grace" },
      { last_name: "Hopper" },
      { first_name: null, last_name: "Hopper" },
      { first_name: 1, last_name: "Hopper" },
      { first_name: "Grace", last_name: "Hopper", nickname: "Amazing" },
    ]) {
      await expectError(await updateProfile(user.accessToken, body), 400, "invalid_request");
    }
    expect(await meBody(user)).toMatchObject({ first_name: "Ada", last_name: "Lovelace" });
  });

  it("changes only the caller's profile", async () => {
    const a = await signupUser();
    const b = await signupUser();
    expect((await updateProfile(a.accessToken, { first_name: "Grace", last_name: "Hopper" })).status).toBe(200);
    expect(await meBody(b)).toMatchObject({ first_name: "Ada", last_name: "Lovelace" });
  });

  it("answers 401 without a token", async () => {
    await expectError(await updateProfile(undefined, { first_name: "Grace", last_name: "Hopper" }), 401, "unauthorized");
  });
});

describe("PUT /api/settings/marketing", () => {
  it("opts in and out, reflected in /me", async () => {
    const user = await signupUser();
    expect((await meBody(user)).marketing_emails_enabled).toBe(false);
    const on = await setMarketing(user.accessToken, { enabled: true });
    expect(on.status).toBe(200);
    expect(await on.text()).toBe("");
    expect((await meBody(user)).marketing_emails_enabled).toBe(true);
    expect((await setMarketing(user.accessToken, { enabled: false })).status).toBe(200);
    expect((await meBody(user)).marketing_emails_enabled).toBe(false);
  });

  it.each([
    ["a string", { enabled: "true" }],
    ["a number", { enabled: 1 }],
    ["null", { enabled: null }],
    ["missing", {}],
  ])("answers 400 when enabled is %s", async (_label, body) => {
    const user = await signupUser();
    await expectError(await setMarketing(user.accessToken, body), 400, "invalid_request");
    expect((await meBody(user)).marketing_emails_enabled).toBe(false);
  });

  it("answers 401 without a token", async () => {
    await expectError(await setMarketing(undefined, { enabled: true }), 401, "unauthorized");
  });
});

import { describe, expect, it } from "vitest";
import { call, expectError, json } from "../helpers";
import { apiCaller, corpusLoaded, research } from "./helpers";

describe("cross-tenant access", () => {
  it("another user's job is 404 on every route; malformed ids are 400", async () => {
    await corpusLoaded();
    const owner = await apiCaller();
    const other = await apiCaller();
    const job = await json(await research(owner, { question: "What was the McKinley Tariff?", mode: "lite" }));
    expect(job.status).toBe("succeeded");

    for (const [method, suffix] of [
      ["GET", ""],
      ["DELETE", ""],
      ["GET", "/events"],
      ["GET", "/deliveries"],
    ] as const) {
      await expectError(await call(`/v1/research/${job.id}${suffix}`, { method, token: other.key }), 404, "not_found");
      await expectError(await call(`/v1/research/${crypto.randomUUID()}${suffix}`, { method, token: owner.key }), 404, "not_found");
      await expectError(await call(`/v1/research/not-a-uuid${suffix}`, { method, token: owner.key }), 400, "invalid_request");
      expect((await call(`/v1/research/${job.id}${suffix}`, { method, token: owner.key })).status).toBe(200);
    }
    await expectError(await call(`/api/playground/research/${job.id}`, { token: other.accessToken }), 404, "not_found");
    await expectError(await call(`/api/playground/research/${job.id}/events`, { token: other.accessToken }), 404, "not_found");
    await expectError(await call(`/api/playground/research/not-a-uuid`, { token: other.accessToken }), 400, "invalid_request");
    expect((await call(`/api/playground/research/${job.id}`, { token: owner.accessToken })).status).toBe(200);

    // The other user's cancel changed nothing, and their list does not show the job.
    expect((await json(await call(`/v1/research/${job.id}`, { token: owner.key }))).status).toBe("succeeded");
    expect(await json(await call("/v1/research", { token: other.key }))).toEqual([]);
  });

  it("401 on every route without a key", async () => {
    const id = crypto.randomUUID();
    for (const [method, path] of [
      ["GET", "/v1/research"],
      ["GET", `/v1/research/${id}`],
      ["DELETE", `/v1/research/${id}`],
      ["GET", `/v1/research/${id}/events`],
      ["GET", `/v1/research/${id}/deliveries`],
    ] as const) {
      await expectError(await call(path, { method }), 401, "unauthorized");
    }
    await expectError(await call(`/api/playground/research/${id}`), 401, "unauthorized");
  });
});

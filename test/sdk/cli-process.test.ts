import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { error, fakeService, json } from "./fake-server";

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

/** The CLI as a process, against a stand-in service (what a real one cannot be made to do on demand: a 429). */
function cli(args: string[], baseUrl: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["sdk/bin/deep-research.mjs", ...args], {
    env: { ...process.env, DEEP_RESEARCH_API_KEY: "dr_test_key", DEEP_RESEARCH_BASE_URL: baseUrl },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

describe("the CLI when rate limited", () => {
  it("says it waits out a Retry-After, then answers", async () => {
    const service = await fakeService([error(429, "rate_limited", "Too many requests.", { "Retry-After": "2" }), json(200, { credits: 480, usd: "4.80" })]);
    close = service.close;
    const run = await cli(["credits"], service.baseUrl);
    expect(run).toEqual({ code: 0, stdout: "480 credits ($4.80)\n", stderr: "Rate limited: retrying in 2 s…\n" });
    expect(service.requests.map((request) => request.headers.authorization)).toEqual(["Bearer dr_test_key", "Bearer dr_test_key"]);
  });

  it("says when to retry when the service asks for longer than it waits (exit 5)", async () => {
    const service = await fakeService([error(429, "rate_limited", "Too many requests.", { "Retry-After": "120" })]);
    close = service.close;
    expect(await cli(["credits"], service.baseUrl)).toEqual({ code: 5, stdout: "", stderr: "Too many requests: retry in 120 s and run it again.\n" });
    expect(service.requests).toHaveLength(1);
  });
});

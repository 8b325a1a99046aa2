import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../src/env";
import { RATE_RULES } from "../src/rate-limit/rules";
import { call, createKey, signupUser } from "./helpers";

// The per-key limit at any concurrency (issue 39, item 5): concurrent requests that found no lease
// each took a block and only the last was kept, so a fresh key allowed 368 of 600 at 5 in flight
// and 107-194 at 20. The clock is frozen (state, not timers): a slow machine cannot roll the
// window over mid-test and let more through.

const { limit, windowMs } = RATE_RULES["v1:key"];
const allowed = Math.max(1, Math.floor(limit * loadConfig(env).RATE_LIMIT_SCALE));

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
const mcp = (key: string) => call("/mcp", { body: INITIALIZE, headers: { Accept: "application/json, text/event-stream" }, token: key });
const credits = (key: string) => call("/v1/credits", { token: key });

/** Sends `total` requests keeping `inFlight` of them in flight at every moment; answers each one's status, by index. */
async function statusesAt(inFlight: number, total: number, send: (i: number) => Promise<Response>): Promise<number[]> {
  const statuses: number[] = new Array(total);
  let next = 0;
  const sender = async () => {
    while (next < total) {
      const i = next++;
      const response = await send(i);
      await response.arrayBuffer();
      statuses[i] = response.status;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, sender));
  return statuses;
}

const countOf = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

async function freshKey(): Promise<string> {
  return (await createKey(await signupUser())).plaintext;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the per-key limit under concurrency", () => {
  for (const inFlight of [1, 5, 20, 50]) {
    it(`allows exactly its number at ${inFlight} in flight, and the next window again`, async () => {
      const key = await freshKey();
      vi.useFakeTimers({ toFake: ["Date"] });
      const over = Math.max(inFlight, 10);
      const statuses = await statusesAt(inFlight, allowed + over, () => credits(key));
      expect({ allowed: countOf(statuses, 200), refused: countOf(statuses, 429) }).toEqual({ allowed, refused: over });
      vi.setSystemTime(Date.now() + windowMs);
      expect((await credits(key)).status).toBe(200);
    });
  }

  it("MCP and /v1 share the key's bucket: mixed at 20 in flight, the limit holds across both", async () => {
    const key = await freshKey();
    vi.useFakeTimers({ toFake: ["Date"] });
    const statuses = await statusesAt(20, allowed, (i) => (i % 2 === 0 ? mcp(key) : credits(key)));
    expect(countOf(statuses, 200)).toBe(allowed);
    expect((await mcp(key)).status).toBe(429);
    expect((await credits(key)).status).toBe(429);
  });
});

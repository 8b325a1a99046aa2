import { describe, expect, it } from "vitest";
import { takeCall, trackCall, validSessionId } from "../../src/routes/mcp/in-flight";

describe("the deep_research calls in flight", () => {
  const job = { userId: "u1", jobId: "j1" };

  it("finds a call by key, session and request id, once", () => {
    const untrack = trackCall("key-a", "session-1", 3, job);
    expect(takeCall("key-b", "session-1", 3)).toBeUndefined();
    expect(takeCall("key-a", "session-2", 3)).toBeUndefined();
    expect(takeCall("key-a", "session-1", "3")).toBeUndefined(); // a JSON-RPC id keeps its type
    expect(takeCall("key-a", "session-1", 3)).toBe(job);
    expect(takeCall("key-a", "session-1", 3)).toBeUndefined();
    untrack();
  });

  it("does not track a call without a session id (request ids alone collide between clients)", () => {
    trackCall("key-a", null, 1, job);
    expect(takeCall("key-a", null, 1)).toBeUndefined();
  });

  it("forgets a call once it is over", () => {
    const untrack = trackCall("key-a", "session-1", 4, job);
    untrack();
    expect(takeCall("key-a", "session-1", 4)).toBeUndefined();
  });

  it("accepts session ids of visible ASCII up to 128 characters only", () => {
    expect(validSessionId("0b9d2c1e-1111-4222-8333-444455556666")).toBe("0b9d2c1e-1111-4222-8333-444455556666");
    for (const bad of [undefined, null, "", "has space", "é", "x".repeat(129)]) expect(validSessionId(bad)).toBeNull();
  });
});

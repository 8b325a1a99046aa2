import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../src/db/client";
import { users } from "../src/db/schema";
import { isUniqueViolation } from "../src/lib/db-errors";

describe("isUniqueViolation", () => {
  it("sees a UNIQUE violation through Drizzle's wrapping error", async () => {
    const db = createDb(env.DB);
    const row = {
      id: crypto.randomUUID(),
      email: `dup-${crypto.randomUUID()}@example.com`,
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
    };
    await db.insert(users).values(row);
    const error = await db
      .insert(users)
      .values({ ...row, id: crypto.randomUUID() })
      .catch((e: unknown) => e);
    expect(isUniqueViolation(error, "users.email")).toBe(true);
    expect(isUniqueViolation(error, "research_jobs.")).toBe(false);
  });

  it("is false for other errors", () => {
    expect(isUniqueViolation(new Error("NOT NULL constraint failed: users.email"))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
  });
});

import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { attachJob, createConnection, findConnection, holdCredits, listConnections, markRevoked, releaseHold } from "../../src/services/oauth/connections";
import { dbRun, insertJob, signupUser } from "../helpers";

/**
 * The connection's credit cap in the Workers runtime (services/oauth/connections.ts): what a
 * connection holds (finished jobs' charges, open jobs' reservations, submits under way), holds
 * judged one after the other, revocation, owner scoping.
 */

const db = () => createDb(env.DB);

async function connection(creditCap: number) {
  const user = await signupUser();
  const row = await createConnection(db(), {
    userId: user.id,
    clientId: "client-1",
    clientName: "Test agent",
    redirectUri: "https://agent.example/callback",
    scope: ["research"],
    creditCap,
  });
  return { user, row };
}

describe("a connection's credit cap", () => {
  it("counts a finished job's charge and an open job's reservation, and refuses a hold past the cap", async () => {
    const { user, row } = await connection(100);
    const first = await holdCredits(db(), row.id, 60);
    expect(first).not.toBeNull();
    // While the submit is under way, its hold counts: 60 + 60 > 100.
    expect(await holdCredits(db(), row.id, 60)).toBeNull();
    const finished = await insertJob(user.id, { status: "succeeded", creditsReserved: 60, creditsCharged: 25, charge: false });
    await attachJob(db(), first!, finished);
    // Finished, it counts what it was charged (25): 25 + 60 fits, then an open job holds its reservation.
    const second = await holdCredits(db(), row.id, 60);
    expect(second).not.toBeNull();
    const running = await insertJob(user.id, { status: "running", creditsReserved: 60, charge: false });
    await attachJob(db(), second!, running);
    expect(await findConnection(db(), user.id, row.id)).toMatchObject({ spent: 25, reserved: 60 });
    expect(await holdCredits(db(), row.id, 16)).toBeNull();
    expect(await holdCredits(db(), row.id, 15)).not.toBeNull();
  });

  it("judges concurrent holds one after the other: of ten holds of 30 against a cap of 100, three pass", async () => {
    const { row } = await connection(100);
    const holds = await Promise.all(Array.from({ length: 10 }, () => holdCredits(db(), row.id, 30)));
    expect(holds.filter((hold) => hold !== null)).toHaveLength(3);
  });

  it("gives a refused submit's hold back, and no longer counts a hold whose submit died 10 minutes ago", async () => {
    const { user, row } = await connection(50);
    const hold = await holdCredits(db(), row.id, 50);
    expect(await holdCredits(db(), row.id, 1)).toBeNull();
    await releaseHold(db(), hold!);
    const stale = await holdCredits(db(), row.id, 50);
    expect(stale).not.toBeNull();
    await dbRun("update oauth_connection_jobs set created_at = ? where id = ?", new Date(Date.now() - 11 * 60_000).toISOString(), stale);
    expect(await findConnection(db(), user.id, row.id)).toMatchObject({ spent: 0, reserved: 0 });
    expect(await holdCredits(db(), row.id, 50)).not.toBeNull();
  });

  it("an Idempotency-Key repeat of a job the connection holds needs no second hold", async () => {
    const { user, row } = await connection(100);
    const job = await insertJob(user.id, { status: "running", creditsReserved: 60, charge: false });
    await attachJob(db(), (await holdCredits(db(), row.id, 60))!, job);
    // The repeat's hold passes only because 40 are left; attached to the same job, it goes away.
    const repeat = await holdCredits(db(), row.id, 40);
    await attachJob(db(), repeat!, job);
    expect(await findConnection(db(), user.id, row.id)).toMatchObject({ reserved: 60 });
  });

  it("a revoked connection holds nothing more; another account neither sees nor revokes it", async () => {
    const { user, row } = await connection(100);
    const stranger = await signupUser();
    expect(await markRevoked(db(), stranger.id, row.id)).toBeNull();
    expect(await listConnections(db(), stranger.id)).toEqual([]);
    const revoked = await markRevoked(db(), user.id, row.id);
    expect(revoked?.revokedAt).toEqual(expect.any(String));
    expect(await holdCredits(db(), row.id, 1)).toBeNull();
    // Revoking again keeps the first time.
    expect((await markRevoked(db(), user.id, row.id))?.revokedAt).toBe(revoked?.revokedAt);
    expect((await listConnections(db(), user.id)).map((listed) => listed.id)).toEqual([row.id]);
  });
});

import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, createKey, expectLedgerConsistent, json } from "../helpers";
import { apiCaller, type ApiCaller, balanceOf } from "../research/helpers";

/**
 * Concurrent uploads never pass the documents cap nor the storage quota (issue 39): 8 concurrent
 * uploads of 100 documents onto 9,900 all succeeded (10,700), each having checked before any wrote.
 */

async function newCollection(caller: ApiCaller): Promise<string> {
  return (await json(await call("/v1/collections", { token: caller.key, body: { name: "Race" } }))).id;
}

/** Documents written straight to D1 (the triggers keep the collection's count and bytes), `bytes` each. */
async function seed(caller: ApiCaller, collectionId: string, count: number, bytes = 10): Promise<void> {
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO collection_documents (id, collection_id, user_id, key, url, title, metadata_json, text, bytes, created_at, updated_at)
     SELECT lower(hex(randomblob(16))), ?, ?, 'title:Seed ' || i, NULL, 'Seed ' || i, NULL, 'Seeded text.', ?, '2026-11-27T00:00:00.000Z', '2026-11-27T00:00:00.000Z' FROM n`,
  )
    .bind(count, collectionId, caller.id, bytes)
    .run();
}

/** Sends the calls at once, each with its own key (as several servers of one account would); their statuses and the ingest charges written. */
async function concurrently(caller: ApiCaller, collectionId: string, bodies: unknown[]) {
  const keys = await Promise.all(bodies.map(async (_, i) => (await createKey(caller, `server ${i}`)).plaintext));
  const responses = await Promise.all(bodies.map((body, i) => call(`/v1/collections/${collectionId}/documents`, { token: keys[i], body })));
  const errors = await Promise.all(responses.filter((r) => r.status !== 200).map(async (r) => `${r.status} ${(await json(r)).error.code}`));
  const charges = await env.DB.prepare(
    "SELECT delta FROM ingest_charges JOIN ledger_entries ON ledger_entries.id = ingest_charges.ledger_entry_id WHERE ingest_charges.user_id = ?",
  )
    .bind(caller.id)
    .all<{ delta: number }>();
  return { succeeded: responses.filter((r) => r.status === 200).length, errors, charges: charges.results.map((row) => row.delta) };
}

const collectionOf = async (caller: ApiCaller, id: string) => json(await call(`/v1/collections/${id}`, { token: caller.key }));

describe("the documents cap and the storage quota under concurrent uploads", () => {
  it("8 concurrent uploads of 100 onto 9,900 documents: one fits, 7 are 400 document_limit_exceeded, the collection holds 10,000", async () => {
    const caller = await apiCaller();
    const id = await newCollection(caller);
    await seed(caller, id, 9_900);
    const balance = await balanceOf(caller);
    const bodies = Array.from({ length: 8 }, (_, call) => ({
      documents: Array.from({ length: 100 }, (_, i) => ({ title: `Call ${call} note ${i}`, text: `Note ${i} of call ${call} about the harbor.` })),
    }));
    const { succeeded, errors, charges } = await concurrently(caller, id, bodies);
    expect(succeeded).toBe(1);
    expect(errors).toEqual(Array(7).fill("400 document_limit_exceeded"));
    expect((await collectionOf(caller, id)).document_count).toBe(10_000);
    // Money: one charge, for the call that was written.
    expect(charges).toEqual([-1]);
    expect(await balanceOf(caller)).toBe(balance - 1);
    await expectLedgerConsistent(caller.id);
  });

  it("8 concurrent uploads of 100 KB with room for one: one fits, 7 are 402 storage_limit_exceeded, the quota holds", async () => {
    const caller = await apiCaller(); // the Free plan: 50 MB of text
    const quota = 50 * 1024 * 1024;
    const id = await newCollection(caller);
    await seed(caller, id, 1, quota - 150_000);
    const balance = await balanceOf(caller);
    const text = "The harbor commission met again. ".repeat(3_000); // ~100 KB
    const bodies = Array.from({ length: 8 }, (_, call) => ({ documents: [{ title: `Report ${call}`, text }] }));
    const { succeeded, errors, charges } = await concurrently(caller, id, bodies);
    expect(succeeded).toBe(1);
    expect(errors).toEqual(Array(7).fill("402 storage_limit_exceeded"));
    expect((await collectionOf(caller, id)).bytes).toBeLessThanOrEqual(quota);
    expect(charges).toEqual([-1]);
    expect(await balanceOf(caller)).toBe(balance - 1);
    await expectLedgerConsistent(caller.id);
  });
});

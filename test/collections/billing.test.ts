import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { ingestDocuments } from "../../src/research/collections/ingest";
import { call, expectError, expectLedgerConsistent, json } from "../helpers";
import { apiCaller, type ApiCaller, balanceOf, setBalance } from "../research/helpers";

async function newCollection(caller: ApiCaller): Promise<string> {
  return (await json(await call("/v1/collections", { token: caller.key, body: { name: "Billing" } }))).id;
}
const ingest = (caller: ApiCaller, id: string, documents: unknown[], key?: string) =>
  call(`/v1/collections/${id}/documents`, { token: caller.key, body: { documents }, headers: key ? { "Idempotency-Key": key } : {} });
const ingestEntries = async (userId: string) =>
  (
    await env.DB.prepare("SELECT delta, related_id FROM ledger_entries WHERE user_id = ? AND kind = 'ingest'")
      .bind(userId)
      .all<{ delta: number; related_id: string }>()
  ).results;
const documentCount = async (caller: ApiCaller, id: string) => (await json(await call(`/v1/collections/${id}`, { token: caller.key }))).document_count;

describe("paying for ingest", () => {
  it("charges 2 credits a MB of text (at least 1) as an `ingest` ledger entry, published as the ingest_mb op price", async () => {
    const caller = await apiCaller();
    const id = await newCollection(caller);
    const before = await balanceOf(caller);
    expect((await ingest(caller, id, [{ title: "Small", text: "A short note about the harbor." }])).status).toBe(200);
    expect(await balanceOf(caller)).toBe(before - 1);
    const mb = "word ".repeat(300_000); // 1.5 MB each, 3 MB in all: 6 credits
    expect(
      (
        await ingest(caller, id, [
          { title: "Big one", text: mb },
          { title: "Big two", text: mb },
        ])
      ).status,
    ).toBe(200);
    expect(await balanceOf(caller)).toBe(before - 1 - 6);
    expect(await ingestEntries(caller.id)).toEqual([
      { delta: -1, related_id: id },
      { delta: -6, related_id: id },
    ]);
    const prices = await json(await call("/api/billing/op-prices"));
    expect(prices).toEqual(expect.arrayContaining([expect.objectContaining({ op: "ingest_mb", credits: 2 })]));
    await expectLedgerConsistent(caller.id);
  });

  it("the same Idempotency-Key and body answer the first result, written and charged once; another body is 422 with nothing written", async () => {
    const caller = await apiCaller();
    const id = await newCollection(caller);
    const before = await balanceOf(caller);
    const docs = [{ title: "Minutes", text: "The board met on Monday." }];
    const first = await json(await ingest(caller, id, docs, "ingest-key-1"));
    const again = await json(await ingest(caller, id, docs, "ingest-key-1"));
    expect(again).toEqual(first);
    expect(await balanceOf(caller)).toBe(before - 1);
    await expectError(await ingest(caller, id, [{ title: "Other", text: "Another body." }], "ingest-key-1"), 422, "idempotency_key_reused");
    expect(await documentCount(caller, id)).toBe(1);
    expect((await ingestEntries(caller.id)).length).toBe(1);
    // Concurrent duplicates: one write, one charge.
    const racing = await Promise.all([1, 2, 3].map(() => ingest(caller, id, [{ title: "Race", text: "Sent three times at once." }], "ingest-key-2")));
    expect(racing.map((response) => response.status)).toEqual([200, 200, 200]);
    expect(new Set(await Promise.all(racing.map(async (response) => JSON.stringify(await json(response))))).size).toBe(1);
    expect((await ingestEntries(caller.id)).length).toBe(2);
    expect(await documentCount(caller, id)).toBe(2);
    await expectLedgerConsistent(caller.id);
  });

  it("402 when the balance is short, with nothing written", async () => {
    const caller = await apiCaller();
    const id = await newCollection(caller);
    await setBalance(caller.id, 0);
    await expectError(await ingest(caller, id, [{ title: "Unpaid", text: "This must not be kept." }]), 402, "insufficient_credits");
    expect(await documentCount(caller, id)).toBe(0);
    expect(await ingestEntries(caller.id)).toEqual([]);
    await expectLedgerConsistent(caller.id);
  });

  it("limits: 10,000 documents a collection (400 document_limit_exceeded), the plan's storage (402 storage_limit_exceeded); a replacement only counts its growth", async () => {
    const caller = await apiCaller();
    const id = await newCollection(caller);
    expect((await ingest(caller, id, [{ title: "Kept", text: "Twenty bytes of text" }])).status).toBe(200);
    const db = createDb(env.DB);
    const tight = { storageQuotaBytes: 30 };
    await expect(ingestDocuments(db, caller.id, id, [{ title: "More", text: "Another twenty bytes" }], tight)).rejects.toMatchObject({
      code: "storage_limit_exceeded",
      status: 402,
    });
    // Replacing "Kept" with a text of the same size adds nothing: within the quota.
    expect((await ingestDocuments(db, caller.id, id, [{ title: "Kept", text: "Twenty bytes of TEXT" }], tight)).ingested).toBe(1);
    await env.DB.prepare("UPDATE collections SET document_count = 10000 WHERE id = ?").bind(id).run();
    await expectError(await ingest(caller, id, [{ title: "One too many", text: "Over the limit." }]), 400, "document_limit_exceeded");
    expect((await ingest(caller, id, [{ title: "Kept", text: "A replacement is not a new document." }])).status).toBe(200);
  });
});

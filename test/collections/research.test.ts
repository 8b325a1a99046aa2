import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, expectError, expectLedgerConsistent, json } from "../helpers";
import { apiCaller, type ApiCaller, balanceOf, corpusLoaded, research, waitForTerminal } from "../research/helpers";
import { DAM, ENGINEER } from "../fixtures/marigold-dam";

async function collectionWith(caller: ApiCaller, name: string, documents: unknown[]): Promise<string> {
  const { id } = await json(await call("/v1/collections", { token: caller.key, body: { name } }));
  expect((await call(`/v1/collections/${id}/documents`, { token: caller.key, body: { documents } })).status).toBe(200);
  return id;
}

describe("research over a collection", () => {
  it("answers a two-hop question from two documents of one collection, every source from it", async () => {
    await corpusLoaded(); // the shared corpus is there, and must not be searched
    const caller = await apiCaller();
    const id = await collectionWith(caller, "Dam archive", [DAM, ENGINEER]);
    const accepted = await json(
      await research(caller, { question: "Where was the engineer who designed the Marigold Dam born?", mode: "standard", collections: [id] }),
    );
    const result = await waitForTerminal(caller, accepted.id);
    expect(result.status).toBe("succeeded");
    expect(result.brief).toContain("Szeged");
    expect(result.sources.length).toBeGreaterThanOrEqual(2);
    for (const source of result.sources) expect(source.url.startsWith(`collection://${id}/`) || source.url === ENGINEER.url).toBe(true);
    // Without a url a document is cited by its collection url, under the collection's name; with one, by its url and host.
    expect(result.sources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ url: expect.stringMatching(new RegExp(`^collection://${id}/[0-9a-f-]{36}$`)), domain: "Dam archive", title: "Marigold Dam" }),
        expect.objectContaining({ url: ENGINEER.url, domain: "engineers.example.org" }),
      ]),
    );
  });

  it("with web: true also searches the default search space (offline: the shared corpus)", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const id = await collectionWith(caller, "Tariff notes", [
      { title: "Archive note on the Tariff of 1828", text: "Our archive holds letters saying the Tariff of 1828 hurt the cotton exporters of Charleston." },
    ]);
    const accepted = await json(
      await research(caller, {
        question: "What did opponents of the Tariff of 1828 call it, and whom did it hurt?",
        mode: "standard",
        collections: [id],
        web: true,
      }),
    );
    const result = await waitForTerminal(caller, accepted.id);
    expect(result.status).toBe("succeeded");
    // Every page the job read is a `source` event of its stream (the result lists only those the brief cites).
    const stream = await (await call(`/v1/research/${accepted.id}/events`, { token: caller.key })).text();
    const urls = [...stream.matchAll(/event: source\ndata: (.+)/g)].map((match) => JSON.parse(match[1]!).url as string);
    expect(urls.some((url) => url.startsWith(`collection://${id}/`))).toBe(true);
    expect(urls.some((url) => url.startsWith("https://history.example.org/"))).toBe(true); // the shared corpus
  });

  it("another account's collection, or an unknown id, is 404 with nothing reserved or written", async () => {
    const owner = await apiCaller();
    const other = await apiCaller();
    const id = await collectionWith(owner, "Mine", [DAM]);
    const before = await balanceOf(other);
    const jobsBefore = await env.DB.prepare("SELECT count(*) AS n FROM research_jobs WHERE user_id = ?").bind(other.id).first<{ n: number }>();
    await expectError(await research(other, { question: "Who designed the Marigold Dam?", mode: "lite", collections: [id] }), 404, "not_found");
    await expectError(
      await research(other, { question: "Who designed the Marigold Dam?", mode: "lite", collections: [crypto.randomUUID()] }),
      404,
      "not_found",
    );
    await expectError(await research(other, { question: "Who designed the Marigold Dam?", mode: "lite", collections: ["not-a-uuid"] }), 400, "invalid_request");
    expect(await balanceOf(other)).toBe(before);
    const jobsAfter = await env.DB.prepare("SELECT count(*) AS n FROM research_jobs WHERE user_id = ?").bind(other.id).first<{ n: number }>();
    expect(jobsAfter!.n).toBe(jobsBefore!.n);
    await expectLedgerConsistent(other.id);
  });

  it("an Idempotency-Key replays its job even after the collection it named is gone", async () => {
    const caller = await apiCaller();
    const id = await collectionWith(caller, "Replayed", [DAM]);
    const body = { question: "Who designed the Marigold Dam?", mode: "lite", async: true, collections: [id] };
    const first = await json(await research(caller, body, { "Idempotency-Key": "collections-replay-1" }));
    expect((await call(`/v1/collections/${id}`, { token: caller.key, method: "DELETE" })).status).toBe(200);
    const again = await research(caller, body, { "Idempotency-Key": "collections-replay-1" });
    expect(again.status).toBe(202);
    expect((await json(again)).id).toBe(first.id);
    // A new job naming it is refused.
    await expectError(await research(caller, body), 404, "not_found");
  });

  it("never finds another account's text, even for the same words", async () => {
    const owner = await apiCaller();
    const other = await apiCaller();
    await collectionWith(owner, "Owner's", [DAM, ENGINEER]);
    const theirs = await collectionWith(other, "Other's", [{ title: "Garden note", text: "The marigold beds were watered twice a day by the gardener." }]);
    const result = await json(await research(other, { question: "Who designed the Marigold Dam on the Pell River?", mode: "lite", collections: [theirs] }));
    for (const source of result.sources ?? []) expect(source.url.startsWith(`collection://${theirs}/`)).toBe(true);
    expect(result.brief ?? "").not.toContain("Varga");
  });

  it("a collection deleted while its job runs: the job finishes with what it read, nothing crashes, the ledger holds", async () => {
    const caller = await apiCaller();
    const id = await collectionWith(caller, "Short-lived", [DAM, ENGINEER]);
    const accepted = await json(
      await research(caller, { question: "Where was the engineer who designed the Marigold Dam born?", mode: "standard", async: true, collections: [id] }),
    );
    expect((await call(`/v1/collections/${id}`, { token: caller.key, method: "DELETE" })).status).toBe(200);
    const result = await waitForTerminal(caller, accepted.id);
    expect(["succeeded", "failed"]).toContain(result.status);
    await expectLedgerConsistent(caller.id);
  });
});

import { describe, expect, it } from "vitest";
import { plainText } from "../../src/lib/plain-text";
import { extractPage } from "../../src/research/providers/reader/extract";
import { adminUser, BASE, call, dbFirst, dbRun, json, randomIp } from "../helpers";
import { apiCaller, type ApiCaller, research, waitForTerminal } from "../research/helpers";

/** Issue 26, defect 7: titles (and source summaries) are plain text at ingest and when read back. */

const SCRIPT = "<script>alert(1)</script>";
const DAM = {
  title: `Marigold Dam${SCRIPT}`,
  text: "# Marigold Dam\n\nThe Marigold Dam is a concrete arch dam on the Pell River. It was designed by the engineer Ottoline Varga and completed in 1931.",
};
const ENGINEER = {
  title: "Ottoline Varga",
  text: "Ottoline Varga was a civil engineer. She was born in Szeged in 1894 and trained at the Budapest Technical University before designing dams.",
};

async function upload(caller: ApiCaller, collectionId: string, file: File): Promise<Response> {
  const form = new FormData();
  form.append("file", file);
  const request = new Request(`${BASE}/v1/collections/${collectionId}/documents`, {
    method: "POST",
    headers: { Authorization: `Bearer ${caller.key}`, "CF-Connecting-IP": randomIp() },
    body: form,
  });
  return (await import("cloudflare:workers")).exports.default.fetch(request);
}

const titlesOf = async (caller: ApiCaller, id: string) =>
  (await json(await call(`/v1/collections/${id}/documents?limit=100`, { token: caller.key }))).map((d: { title: string }) => d.title).sort();

describe("plainText", () => {
  it("removes code elements with their content, other tags, decodes entities and collapses whitespace", () => {
    expect(plainText(`T${SCRIPT}`)).toBe("T");
    expect(plainText("Tunnels &amp; <b>Trolls</b>\n  (2nd&nbsp;ed.)")).toBe("Tunnels & Trolls (2nd ed.)");
    expect(plainText("A &lt;script&gt;alert(1)&lt;/script&gt; B")).toBe("A B"); // decoding brings no tag back
    expect(plainText("T<script")).toBe("T");
    expect(plainText("<style>p{}</style>Report <!-- note --> 2024")).toBe("Report 2024");
    expect(plainText("x < y and 3 > 2")).toBe("x < y and 3 > 2");
    expect(plainText("  Plain   title ")).toBe("Plain title");
  });

  it("is what the reader makes of a web page's <title>", async () => {
    expect(
      extractPage(
        `<html><head><title>News${SCRIPT} &amp; <i>views</i></title></head><body><p>Some text of the page that is long enough to keep.</p></body></html>`,
        "https://example.com/news",
      ).title,
    ).toBe("News & views");
  });
});

describe("titles are kept and returned as plain text", () => {
  it("JSON documents: the ingest answer, the list, GET and a research job's sources show `Marigold Dam`", async () => {
    const caller = await apiCaller();
    const { id } = await json(await call("/v1/collections", { token: caller.key, body: { name: "Dam archive" } }));
    const ingested = await json(await call(`/v1/collections/${id}/documents`, { token: caller.key, body: { documents: [DAM, ENGINEER] } }));
    expect(ingested.documents.map((d: { title: string }) => d.title)).toEqual(["Marigold Dam", "Ottoline Varga"]);
    expect(await titlesOf(caller, id)).toEqual(["Marigold Dam", "Ottoline Varga"]);
    const damId = ingested.documents[0].id;
    expect((await json(await call(`/v1/collections/${id}/documents/${damId}`, { token: caller.key }))).title).toBe("Marigold Dam");
    expect((await dbFirst<{ title: string }>("select title from collection_documents where id = ?", damId))!.title).toBe("Marigold Dam");

    const accepted = await json(
      await research(caller, { question: "Where was the engineer who designed the Marigold Dam born?", mode: "standard", collections: [id] }),
    );
    const result = await waitForTerminal(caller, accepted.id);
    expect(result.status).toBe("succeeded");
    expect(result.sources.map((s: { title: string }) => s.title)).toContain("Marigold Dam");
    for (const source of result.sources) expect(JSON.stringify(source)).not.toMatch(/<script/i);
  });

  it("an HTML file's <title> is made plain", async () => {
    const caller = await apiCaller();
    const { id } = await json(await call("/v1/collections", { token: caller.key, body: { name: "Pages" } }));
    const html = `<html><head><title>Bridge${SCRIPT} &amp; <b>tunnel</b> report</title></head><body><p>The bridge was inspected in May and found sound.</p></body></html>`;
    const response = await upload(caller, id, new File([html], "bridge.html", { type: "text/html" }));
    expect(response.status).toBe(200);
    expect((await json(response)).documents[0].title).toBe("Bridge & tunnel report");
    expect(await titlesOf(caller, id)).toEqual(["Bridge & tunnel report"]);
  });

  it("rows stored before (with markup) are read back plain: the list, GET and a job's sources", async () => {
    const caller = await apiCaller();
    const { id } = await json(await call("/v1/collections", { token: caller.key, body: { name: "Dam archive" } }));
    const ingested = await json(
      await call(`/v1/collections/${id}/documents`, { token: caller.key, body: { documents: [{ ...DAM, title: "Marigold Dam" }, ENGINEER] } }),
    );
    const damId = ingested.documents[0].id;
    await dbRun("update collection_documents set title = ? where id = ?", `Marigold Dam${SCRIPT}`, damId);
    expect(await titlesOf(caller, id)).toEqual(["Marigold Dam", "Ottoline Varga"]);
    expect((await json(await call(`/v1/collections/${id}/documents/${damId}`, { token: caller.key }))).title).toBe("Marigold Dam");
    const accepted = await json(
      await research(caller, { question: "Where was the engineer who designed the Marigold Dam born?", mode: "standard", collections: [id] }),
    );
    const result = await waitForTerminal(caller, accepted.id);
    for (const source of result.sources) expect(JSON.stringify(source)).not.toMatch(/<script/i);
    // A finished job's stored result with a raw title (written before this change) is read back
    // plain: a copy of the row as an older version stored it, under an id never read (a finished
    // result, once read, is served from the isolate's memory).
    const row = (await dbFirst<Record<string, unknown>>("select * from research_jobs where id = ?", accepted.id))!;
    const oldId = crypto.randomUUID();
    const stored = JSON.parse(row.result_json as string);
    stored.id = oldId;
    stored.sources[0].title = `Old${SCRIPT}`;
    const old = { ...row, id: oldId, idempotency_key: null, result_json: JSON.stringify(stored) };
    await dbRun(
      `insert into research_jobs (${Object.keys(old).join(", ")}) values (${Object.keys(old)
        .map(() => "?")
        .join(", ")})`,
      ...Object.values(old),
    );
    const reread = await json(await call(`/v1/research/${oldId}`, { token: caller.key }));
    expect(reread.sources[0].title).toBe("Old");
  });

  it("a title that is only markup is refused (400), not stored empty", async () => {
    const caller = await apiCaller();
    const { id } = await json(await call("/v1/collections", { token: caller.key, body: { name: "Empty" } }));
    const response = await call(`/v1/collections/${id}/documents`, { token: caller.key, body: { documents: [{ title: SCRIPT, text: "Some text." }] } });
    expect(response.status).toBe(400);
  });

  it("the shared corpus: an admin's documents are stored with plain titles", async () => {
    const admin = await adminUser();
    const url = `https://titles.example.org/${crypto.randomUUID()}`;
    const response = await call("/api/admin/corpus", {
      token: admin.accessToken,
      body: { documents: [{ url, title: `Harbor${SCRIPT} &amp; canal`, text: "The harbor and the canal." }] },
    });
    expect(response.status).toBe(200);
    expect((await dbFirst<{ title: string }>("select title from corpus_documents where url = ?", url))!.title).toBe("Harbor & canal");
  });
});

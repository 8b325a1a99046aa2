import { describe, expect, it } from "vitest";
import { BASE, call, json, randomIp } from "../helpers";
import { recordExchange } from "../setup/response-contract";
import { apiCaller, type ApiCaller, research, waitForTerminal } from "../research/helpers";

/**
 * A document's date and author reach a job's sources through HTTP (issue 42, item 6): given as its
 * metadata (`published_at`, `author`) or stated by an uploaded HTML page, as a web page's do. Every
 * response is checked against /openapi.json (SourceDto's `published_at` and `author`).
 */
async function collectionWith(caller: ApiCaller, name: string, documents: unknown[]): Promise<string> {
  const { id } = await json(await call("/v1/collections", { token: caller.key, body: { name } }));
  expect((await call(`/v1/collections/${id}/documents`, { token: caller.key, body: { documents } })).status).toBe(200);
  return id;
}

async function upload(caller: ApiCaller, collectionId: string, file: File): Promise<Response> {
  const form = new FormData();
  form.append("file", file);
  const request = new Request(`${BASE}/v1/collections/${collectionId}/documents`, {
    method: "POST",
    headers: { Authorization: `Bearer ${caller.key}`, "CF-Connecting-IP": randomIp() },
    body: form,
  });
  const response = await (await import("cloudflare:workers")).exports.default.fetch(request);
  recordExchange(request, response);
  return response;
}

const REOPENED = {
  title: "Marigold Dam reopens after repairs",
  text: "The Marigold Dam reopened to visitors after two years of repairs. Engineers replaced the spillway gates of the Marigold Dam.",
  url: "https://news.example/marigold-reopens",
  metadata: { published_at: "2024-05-01T09:30:00+02:00", author: ["Jane Doe", "John Roe"], desk: "regional" },
};
const HISTORY = {
  title: "Marigold Dam history",
  text: "The Marigold Dam is a concrete arch dam on the Pell River. The Marigold Dam was completed in 1931 after four years of work.",
  metadata: { published_at: "sometime in spring", author: 42 },
};

describe("a collection document's date and author", () => {
  it("reach the job's sources and its source events when its metadata names them; other metadata is not read", async () => {
    const caller = await apiCaller();
    const id = await collectionWith(caller, "Dam news", [REOPENED, HISTORY]);
    const accepted = await json(await research(caller, { question: "What happened to the Marigold Dam?", mode: "lite", collections: [id] }));
    const result = await waitForTerminal(caller, accepted.id);
    expect(result.status).toBe("succeeded");
    const reopened = result.sources.find((source: { url: string }) => source.url === REOPENED.url);
    // A time is given in UTC; a list of names is joined.
    expect(reopened).toMatchObject({ published_at: "2024-05-01T07:30:00Z", author: "Jane Doe, John Roe" });
    const history = result.sources.find((source: { title: string }) => source.title === HISTORY.title);
    if (history) {
      expect(history).not.toHaveProperty("published_at");
      expect(history).not.toHaveProperty("author");
    }
    const stream = await (await call(`/v1/research/${accepted.id}/events`, { token: caller.key })).text();
    const streamed = [...stream.matchAll(/event: source\ndata: (.+)/g)].map((match) => JSON.parse(match[1]!));
    expect(streamed).toContainEqual(expect.objectContaining({ url: REOPENED.url, published_at: "2024-05-01T07:30:00Z", author: "Jane Doe, John Roe" }));
  });

  it("an uploaded HTML page's own date and author are kept as its metadata and reach the job's sources", async () => {
    const caller = await apiCaller();
    const { id } = await json(await call("/v1/collections", { token: caller.key, body: { name: "Saved pages" } }));
    const html = `<!doctype html><html lang="en"><head><title>Otters use rocks as tools</title>
<meta property="article:published_time" content="2023-11-20"><meta name="author" content="Ada Kelp"></head>
<body><article><h1>Otters use rocks as tools</h1><p>Sea otters in Monterey Bay float on their backs and use flat rocks as anvils to crack open sea urchins and clams.</p>
<p>Each otter keeps a favourite rock in a loose pouch of skin under its forearm between dives, researchers found during the spring survey.</p></article></body></html>`;
    const uploaded = await upload(caller, id, new File([html], "otters.html", { type: "text/html" }));
    expect(uploaded.status).toBe(200);
    const listed = await json(await call(`/v1/collections/${id}/documents`, { token: caller.key }));
    expect(listed[0].metadata).toEqual({ published_at: "2023-11-20", author: "Ada Kelp" });

    const accepted = await json(await research(caller, { question: "How do sea otters open sea urchins?", mode: "lite", collections: [id] }));
    const result = await waitForTerminal(caller, accepted.id);
    expect(result.status).toBe("succeeded");
    expect(result.sources).toEqual([expect.objectContaining({ title: "Otters use rocks as tools", published_at: "2023-11-20", author: "Ada Kelp" })]);
  });
});

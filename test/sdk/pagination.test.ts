import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { DeepResearch } from "../../sdk/src/index";
import { nextPaging } from "../../sdk/src/pagination";
import { fakeService, json, type Recorded } from "./fake-server";

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

const row = (n: number) => ({ id: `job-${n}`, question: `q${n}`, status: "succeeded", credits_charged: 15, created_at: "2026-01-01T00:00:00.000Z" });

/**
 * GET /v1/research over five jobs, paged as the service pages: the rows of `limit` and `offset`,
 * and a Link to the next page while one exists. Its Link names another host on purpose: the
 * client must take only the paging from it.
 */
function pagedJobs(req: Recorded, res: ServerResponse) {
  const query = new URL(req.url, "http://x").searchParams;
  const limit = Number(query.get("limit") ?? 20);
  const offset = Number(query.get("offset") ?? 0);
  const rows = [1, 2, 3, 4, 5].map(row).slice(offset, offset + limit);
  const more = offset + limit < 5;
  const next = `https://elsewhere.example/v1/research?status=succeeded&limit=${limit}&offset=${offset + limit}`;
  json(200, rows, more ? { Link: `<${next}>; rel="next"` } : {})(req, res);
}

describe("lists", () => {
  it("awaited, a list is its first page; iterated, every item of every page, following the Link header", async () => {
    const service = await fakeService([pagedJobs]);
    close = service.close;
    const client = new DeepResearch({ apiKey: "dr_test_key", baseUrl: service.baseUrl });

    expect((await client.jobs.list({ status: "succeeded", limit: 2 })).map((job) => job.id)).toEqual(["job-1", "job-2"]);
    const seen: string[] = [];
    for await (const job of client.jobs.list({ status: "succeeded", limit: 2 })) seen.push(job.id);
    expect(seen).toEqual(["job-1", "job-2", "job-3", "job-4", "job-5"]);
    // Every page from the client's own base URL, with its key and the caller's filter.
    expect(service.requests.slice(1).map((request) => request.url)).toEqual([
      "/v1/research?status=succeeded&limit=2",
      "/v1/research?status=succeeded&limit=2&offset=2",
      "/v1/research?status=succeeded&limit=2&offset=4",
    ]);
    expect(service.requests.every((request) => request.headers.authorization === "Bearer dr_test_key")).toBe(true);
    // client.list() is the same call.
    expect((await client.list({ limit: 3 })).map((job) => job.id)).toEqual(["job-1", "job-2", "job-3"]);
  });

  it("stops asking once the caller stops iterating", async () => {
    const service = await fakeService([pagedJobs]);
    close = service.close;
    const client = new DeepResearch({ apiKey: "dr_test_key", baseUrl: service.baseUrl });
    for await (const job of client.collections.list({ limit: 2 })) if (job.id === "job-1") break;
    expect(service.requests).toHaveLength(1);
  });

  it("reads the next page from a Link header, whatever else it holds", () => {
    expect(nextPaging(null)).toBeNull();
    expect(nextPaging('<https://a.example/v1/research?limit=20&offset=20>; rel="next"')).toEqual({ limit: 20, offset: 20 });
    expect(nextPaging('<https://a.example/x?limit=5&offset=0>; rel="prev", </x?a=1,2&limit=5&offset=10>; rel="last next"')).toEqual({ limit: 5, offset: 10 });
    expect(nextPaging("</x?limit=5&offset=10>; rel=next")).toEqual({ limit: 5, offset: 10 });
    expect(nextPaging('</x?limit=5&offset=10>; rel="prev"')).toBeNull();
    expect(nextPaging('</x?offset=10>; rel="next"')).toBeNull();
  });
});

describe("withResponse()", () => {
  it("gives the data with its response: status, headers and request id", async () => {
    const service = await fakeService([json(200, { credits: 480, usd: "4.80" }, { "RateLimit-Remaining": "59" })]);
    close = service.close;
    const client = new DeepResearch({ apiKey: "dr_test_key", baseUrl: service.baseUrl });
    const { data, response, requestId } = await client.credits().withResponse();
    expect(data).toEqual({ credits: 480, usd: "4.80" });
    expect(response.status).toBe(200);
    expect(response.headers.get("RateLimit-Remaining")).toBe("59");
    expect(requestId).toBe("req-200");
  });

  it("a submit's answer keeps its shape ({status, result | job}) and its response", async () => {
    const accepted = { id: "job-1", status: "pending", status_url: "http://x/v1/research/job-1", events_url: "http://x/v1/research/job-1/events" };
    const service = await fakeService([json(202, accepted)]);
    close = service.close;
    const client = new DeepResearch({ apiKey: "dr_test_key", baseUrl: service.baseUrl });
    const { data, response } = await client.submit("q", { idempotencyKey: "key-1" }).withResponse();
    expect(data).toEqual({ status: 202, job: accepted, idempotencyKey: "key-1" });
    expect(response.status).toBe(202);
  });
});

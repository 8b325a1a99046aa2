import { describe, expect, it } from "vitest";
import { BASE, call, expectError, json, randomIp } from "../helpers";
import { recordExchange } from "../setup/response-contract";
import { apiCaller, type ApiCaller, balanceOf } from "../research/helpers";
import { deflatedZeros, flatePdf, minimalPdf, pagedPdf } from "./pdf";

async function upload(caller: ApiCaller, collectionId: string, files: File[]): Promise<Response> {
  const form = new FormData();
  for (const file of files) form.append("file", file);
  const request = new Request(`${BASE}/v1/collections/${collectionId}/documents`, {
    method: "POST",
    headers: { Authorization: `Bearer ${caller.key}`, "CF-Connecting-IP": randomIp() },
    body: form,
  });
  const response = await (await import("cloudflare:workers")).exports.default.fetch(request);
  recordExchange(request, response);
  return response;
}

async function newCollection(caller: ApiCaller): Promise<string> {
  return (await json(await call("/v1/collections", { token: caller.key, body: { name: "Uploads" } }))).id;
}

const docsOf = async (caller: ApiCaller, id: string) => json(await call(`/v1/collections/${id}/documents?limit=100`, { token: caller.key }));
const textOf = async (caller: ApiCaller, id: string, docId: string) =>
  (await json(await call(`/v1/collections/${id}/documents/${docId}`, { token: caller.key }))).text as string;

describe("uploading files to a collection (multipart/form-data)", () => {
  it("reads each type: text, markdown (title from its heading), HTML (main text), PDF (text and title) and JSON Lines", async () => {
    const caller = await apiCaller();
    const id = await newCollection(caller);
    const response = await upload(caller, id, [
      new File(["Minutes of the March meeting. The board approved the harbor budget."], "march-minutes.txt", { type: "text/plain" }),
      new File(["# Canal history\n\nThe canal opened in 1825."], "notes.md"),
      new File(
        [`<html><head><title>Bridge report</title></head><body><nav>Home About</nav><p>The bridge was inspected in May and found sound.</p></body></html>`],
        "bridge.html",
        { type: "text/html" },
      ),
      new File([minimalPdf(["The tunnel was bored in 1904.", "It is two miles long."], "Tunnel survey")], "survey.pdf", { type: "application/pdf" }),
      new File(
        [
          `{"title": "Lighthouse", "text": "The lighthouse was lit in 1857.", "url": "https://example.org/lighthouse"}\n\n{"title": "Pier", "text": "The pier was rebuilt after the storm.", "metadata": {"source": "archive"}}\n`,
        ],
        "more.jsonl",
      ),
    ]);
    const result = await json(response);
    expect(result).toMatchObject({ ingested: 6 });
    expect(result.ingested).toBe(6);
    expect(result.documents.map((d: { title: string }) => d.title)).toEqual([
      "march-minutes",
      "Canal history",
      "Bridge report",
      "Tunnel survey",
      "Lighthouse",
      "Pier",
    ]);
    const byTitle = new Map<string, string>(result.documents.map((d: { title: string; id: string }) => [d.title, d.id]));
    expect(await textOf(caller, id, byTitle.get("Bridge report")!)).toBe("The bridge was inspected in May and found sound.");
    const pdfText = await textOf(caller, id, byTitle.get("Tunnel survey")!);
    expect(pdfText).toContain("The tunnel was bored in 1904.");
    expect(pdfText).toContain("It is two miles long.");
    expect((await docsOf(caller, id)).find((d: { title: string }) => d.title === "Pier").metadata).toEqual({ source: "archive" });
  });

  it("refuses, with nothing written: an unsupported type (415), a PDF without text (400), a bad JSON line (400), a file over 20 MB (413)", async () => {
    const caller = await apiCaller();
    const id = await newCollection(caller);
    const fine = new File(["A fine document that must not be written when another file fails."], "fine.txt");
    await expectError(
      await upload(caller, id, [fine, new File([new Uint8Array([1, 2, 3])], "photo.png", { type: "image/png" })]),
      415,
      "unsupported_media_type",
    );
    const scanned = await upload(caller, id, [fine, new File([minimalPdf([])], "scan.pdf", { type: "application/pdf" })]);
    await expectError(scanned.clone(), 400, "invalid_request");
    expect((await json(scanned)).error.message).toMatch(/no text we can extract/);
    await expectError(await upload(caller, id, [new File(['{"title": "A", "text": "ok"}\n{not json}\n'], "bad.jsonl")]), 400, "invalid_request");
    await expectError(await upload(caller, id, [new File([new Uint8Array(20 * 1024 * 1024 + 1)], "big.txt")]), 413, "payload_too_large");
    await expectError(
      await call(`/v1/collections/${id}/documents`, { token: caller.key, rawBody: "just text", headers: { "Content-Type": "text/plain" } }),
      415,
      "unsupported_media_type",
    );
    expect(await docsOf(caller, id)).toEqual([]);
  });
});

describe("what one upload may cost (issue 26): bounded before the work, 413 naming the bound, nothing written or charged", () => {
  /** Uploads `file` and expects the error, with the collection still empty and the balance unchanged. */
  async function refused(file: File, status: number, code: string): Promise<{ message: string }> {
    const caller = await apiCaller();
    const id = await newCollection(caller);
    const balance = await balanceOf(caller);
    const response = await upload(caller, id, [new File(["A fine document that must not be written when another file fails."], "fine.txt"), file]);
    const body = await expectError(response, status, code);
    expect(await docsOf(caller, id)).toEqual([]);
    expect(await balanceOf(caller)).toBe(balance);
    return { message: body.error.message };
  }

  it("a PDF over the page cap (2,000 pages) is refused from its page count, before any page is read", async () => {
    const { message } = await refused(new File([pagedPdf(2_001)], "long.pdf", { type: "application/pdf" }), 413, "payload_too_large");
    expect(message).toBe('"long.pdf" has at least 2001 pages; a PDF may have at most 2000. Split it into parts.');
  });

  // How fast and in how much memory: bench/uploads.ts (timed assertions do not belong in tests).
  it("a flate bomb (200 MB of zeros in 200 KB) is refused from a count of its decoded bytes (more routes: pdf-bombs.test.ts)", async () => {
    const bomb = flatePdf(await deflatedZeros(200 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(300_000);
    const { message } = await refused(new File([bomb], "bomb.pdf", { type: "application/pdf" }), 413, "payload_too_large");
    expect(message).toMatch(/"bomb\.pdf" has a compressed stream that decodes to more than 8 MB/);
  });

  it("a PDF with more text than a document may have stops being read at the page that passes the cap", async () => {
    // 1-point type: 500 lines of ~1,000 characters a page, ~500 KB of text a page.
    const line = "The harbor commission met and approved the dredging of the north channel again. ".repeat(12);
    const pdf = pagedPdf(6, (page) => Array.from({ length: 500 }, (_, i) => `${page}.${i} ${line}`), 1);
    const { message } = await refused(new File([pdf], "minutes.pdf", { type: "application/pdf" }), 413, "payload_too_large");
    expect(message).toMatch(/^"minutes\.pdf" has more than 2 MB of text \(at page 5 of 6\); a document may have at most 2 MB/);
  });

  it("a PDF of a few hundred pages is still read whole", async () => {
    const caller = await apiCaller();
    const id = await newCollection(caller);
    const result = await json(await upload(caller, id, [new File([pagedPdf(300)], "annual.pdf", { type: "application/pdf" })]));
    expect(result.ingested).toBe(1);
    const text = await textOf(caller, id, result.documents[0].id);
    expect(text).toContain("Page 1 of the harbor report.");
    expect(text).toContain("Page 300 of the harbor report.");
  });

  it("JSON Lines: the line after the 100th document is refused before the rest of the file is read", async () => {
    const lines = Array.from({ length: 101 }, (_, i) => JSON.stringify({ title: `Note ${i}`, text: `Note number ${i}.` }));
    const file = new File([`${lines.join("\n")}\n{not json}\n`], "notes.jsonl");
    const { message } = await refused(file, 400, "invalid_request");
    expect(message).toBe("At most 100 documents per call (the files hold more).");
  });

  // Before the bound this took 339 s (quadratic); the test's 20 s timeout is what a regression meets.
  it("HTML nested 100,000 deep with 100,000 unmatched end tags is read (flattened past 256 open elements)", async () => {
    const caller = await apiCaller();
    const id = await newCollection(caller);
    const html = `<html><head><title>Deep</title></head><body>${"<div>".repeat(100_000)}<p>The canal opened in 1825 and carried coal to the city.</p>${"</span>".repeat(100_000)}</body></html>`;
    const result = await json(await upload(caller, id, [new File([html], "deep.html", { type: "text/html" })]));
    expect(await textOf(caller, id, result.documents[0].id)).toBe("The canal opened in 1825 and carried coal to the city.");
  });

  it("a request body over 21 MB is refused from its Content-Length before it is read (413)", async () => {
    const caller = await apiCaller();
    const id = await newCollection(caller);
    const body = new Uint8Array(21 * 1024 * 1024 + 1);
    const request = new Request(`${BASE}/v1/collections/${id}/documents`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${caller.key}`,
        "CF-Connecting-IP": randomIp(),
        "Content-Type": "multipart/form-data; boundary=x",
        "Content-Length": String(body.length),
      },
      body,
    });
    const response = await (await import("cloudflare:workers")).exports.default.fetch(request);
    recordExchange(request, response);
    const error = await expectError(response, 413, "payload_too_large");
    expect(error.error.message).toBe(`The request body is ${body.length} bytes; one call may send at most 22020096 (21 MB). Send the files in several calls.`);
  });
});

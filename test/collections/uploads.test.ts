import { describe, expect, it } from "vitest";
import { BASE, call, expectError, json, randomIp } from "../helpers";
import { recordExchange } from "../setup/response-contract";
import { apiCaller, type ApiCaller } from "../research/helpers";
import { minimalPdf } from "./pdf";

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
const textOf = async (caller: ApiCaller, id: string, docId: string) => (await json(await call(`/v1/collections/${id}/documents/${docId}`, { token: caller.key }))).text as string;

describe("uploading files to a collection (multipart/form-data)", () => {
  it("reads each type: text, markdown (title from its heading), HTML (main text), PDF (text and title) and JSON Lines", async () => {
    const caller = await apiCaller();
    const id = await newCollection(caller);
    const response = await upload(caller, id, [
      new File(["Minutes of the March meeting. The board approved the harbor budget."], "march-minutes.txt", { type: "text/plain" }),
      new File(["# Canal history\n\nThe canal opened in 1825."], "notes.md"),
      new File([`<html><head><title>Bridge report</title></head><body><nav>Home About</nav><p>The bridge was inspected in May and found sound.</p></body></html>`], "bridge.html", { type: "text/html" }),
      new File([minimalPdf(["The tunnel was bored in 1904.", "It is two miles long."], "Tunnel survey")], "survey.pdf", { type: "application/pdf" }),
      new File([`{"title": "Lighthouse", "text": "The lighthouse was lit in 1857.", "url": "https://example.org/lighthouse"}\n\n{"title": "Pier", "text": "The pier was rebuilt after the storm.", "metadata": {"source": "archive"}}\n`], "more.jsonl"),
    ]);
    const result = await json(response);
    expect(result).toMatchObject({ ingested: 6 });
    expect(result.ingested).toBe(6);
    expect(result.documents.map((d: { title: string }) => d.title)).toEqual(["march-minutes", "Canal history", "Bridge report", "Tunnel survey", "Lighthouse", "Pier"]);
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
    await expectError(await upload(caller, id, [fine, new File([new Uint8Array([1, 2, 3])], "photo.png", { type: "image/png" })]), 415, "unsupported_media_type");
    const scanned = await upload(caller, id, [fine, new File([minimalPdf([])], "scan.pdf", { type: "application/pdf" })]);
    await expectError(scanned.clone(), 400, "invalid_request");
    expect((await json(scanned)).error.message).toMatch(/no text we can extract/);
    await expectError(await upload(caller, id, [new File(['{"title": "A", "text": "ok"}\n{not json}\n'], "bad.jsonl")]), 400, "invalid_request");
    await expectError(await upload(caller, id, [new File([new Uint8Array(20 * 1024 * 1024 + 1)], "big.txt")]), 413, "payload_too_large");
    await expectError(await call(`/v1/collections/${id}/documents`, { token: caller.key, rawBody: "just text", headers: { "Content-Type": "text/plain" } }), 415, "unsupported_media_type");
    expect(await docsOf(caller, id)).toEqual([]);
  });
});

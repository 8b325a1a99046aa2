import { describe, expect, it } from "vitest";
import { UPLOAD_LIMITS } from "../../src/research/collections/limits";
import { readPdf } from "../../src/research/providers/pdf/read-pdf";
import { decodeBudget } from "../../src/research/providers/pdf/decode-budget";
import { BASE, call, expectError, expectLedgerConsistent, json, randomIp } from "../helpers";
import { recordExchange } from "../setup/response-contract";
import { apiCaller, type ApiCaller, balanceOf } from "../research/helpers";
import { ascii85Zeros, asciiHex, deflate, deflatedZeros, lzwZeros, minimalPdf, objectStreamPdf, pdfOf, runLengthZeros } from "./pdf";

/**
 * Decompression bombs through every route a filter can take to PDF.js (issue 39): the count is
 * of what PDF.js decodes, so none of them gets past it. Each was accepted before (the pre-scan
 * guessed the filters from the file's text), costing up to 400 MB of memory per upload.
 */

const MB = 1024 * 1024;
const encoder = new TextEncoder();

/** A one-page PDF whose page content is this stream, with `extra` objects after it (numbered from 5). */
const contentPdf = (dictionary: string, data: Uint8Array, extra: string[] = []) =>
  pdfOf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << >> >>",
    { dictionary, data },
    ...extra,
  ]);

let zeros: Promise<Uint8Array> | undefined;
/** 200 MB of zeros, deflated (~200 KB), made once for the file. */
const bomb = () => (zeros ??= deflatedZeros(200 * MB));

/** Each way a stream can reach PDF.js's decoders, with data that decodes to 200 MB or more. */
const bombs: Array<[string, () => Promise<Uint8Array>]> = [
  ["a plain /FlateDecode (refused before too)", async () => contentPdf("<< /Filter /FlateDecode >>", await bomb())],
  ["an indirect filter (/Filter 5 0 R)", async () => contentPdf("<< /Filter 5 0 R >>", await bomb(), ["/FlateDecode"])],
  ["an indirect filter array", async () => contentPdf("<< /Filter 5 0 R >>", await bomb(), ["[/FlateDecode]"])],
  ['"obj" after the filter in the dictionary', async () => contentPdf("<< /Filter /FlateDecode /Note (see obj 12) >>", await bomb())],
  ["a #xx escape in the filter's name", async () => contentPdf("<< /Filter /Fl#61teDecode >>", await bomb())],
  ["/F, PDF.js's other key for /Filter", async () => contentPdf("<< /F /Fl >>", await bomb())],
  ["/RunLengthDecode (64 times)", async () => contentPdf("<< /Filter /RunLengthDecode >>", runLengthZeros(200 * MB))],
  ["/LZWDecode", async () => contentPdf("<< /Filter /LZWDecode >>", lzwZeros(200 * MB))],
  ["/ASCII85Decode z runs (4 times)", async () => contentPdf("<< /Filter /A85 >>", ascii85Zeros(48 * MB))],
  ["/ASCIIHexDecode then /FlateDecode", async () => contentPdf("<< /Filter [/AHx /FlateDecode] >>", asciiHex(await bomb()))],
  ["/FlateDecode twice", async () => contentPdf("<< /Filter [/FlateDecode /FlateDecode] >>", await deflate(await deflatedZeros(400 * MB)))],
  [
    "a filter named by an object inside an object stream",
    async () => objectStreamPdf({ dictionary: "<< /Filter 6 0 R >>", data: await bomb() }, "/FlateDecode", false),
  ],
  [
    "a content stream inside a compressed object stream",
    async () => objectStreamPdf({ dictionary: "<< /Filter /FlateDecode >>", data: await bomb() }, "<< >>", true),
  ],
];

/**
 * A 7 MB content (under the 8 MB a stream may decode to) in a form drawn 20 times on one page:
 * PDF.js decodes it each time (140 MB), which a count of the file's streams sees once.
 */
async function redrawnFormPdf(): Promise<Uint8Array> {
  const form = new Uint8Array(7 * MB).fill(0x20);
  form.set(encoder.encode("BT /F1 12 Tf 72 720 Td (The harbor report.) Tj ET"), form.length - 60);
  return pdfOf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 6 0 R >> /XObject << /X 5 0 R >> >> >>",
    { dictionary: "<< >>", data: encoder.encode("/X Do ".repeat(20)) },
    { dictionary: "<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Filter /FlateDecode >>", data: await deflate(form) },
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ]);
}

/**
 * A 1 KB PDF whose font's ToUnicode map has four ranges of 16.7 million codes each: no stream is
 * large, but PDF.js fills in an entry a code (150 s and 4 GB in Node before this was counted).
 */
function characterMapPdf(): Uint8Array {
  const hex = (n: number) => n.toString(16).padStart(8, "0");
  const ranges = Array.from({ length: 4 }, (_, i) => `<${hex(i * 0x1000000)}> <${hex(i * 0x1000000 + 0xfffffe)}> <0041>`).join(" ");
  const cmap = `/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /X def 1 begincodespacerange <00000000> <FFFFFFFF> endcodespacerange 4 beginbfrange ${ranges} endbfrange endcmap CMapName currentdict /CMap defineresource pop end end`;
  return pdfOf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    { dictionary: "<< >>", data: encoder.encode("BT /F1 12 Tf 72 720 Td (Hello) Tj ET") },
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
    { dictionary: "<< >>", data: encoder.encode(cmap) },
  ]);
}

async function upload(caller: ApiCaller, collectionId: string, file: File): Promise<Response> {
  const form = new FormData();
  form.append("file", new File(["A fine document that must not be written when the PDF is refused."], "fine.txt"));
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

/** Uploads the PDF and expects 413 with nothing written or charged; returns the message. */
async function refusedUpload(pdf: Uint8Array): Promise<string> {
  const caller = await apiCaller();
  const id = (await json(await call("/v1/collections", { token: caller.key, body: { name: "Bombs" } }))).id;
  const balance = await balanceOf(caller);
  const body = await expectError(await upload(caller, id, new File([pdf], "bomb.pdf", { type: "application/pdf" })), 413, "payload_too_large");
  expect((await json(await call(`/v1/collections/${id}/documents`, { token: caller.key }))).length).toBe(0);
  expect(await balanceOf(caller)).toBe(balance);
  await expectLedgerConsistent(caller.id);
  return body.error.message;
}

describe("decompression bombs are refused whatever route their filter takes (413, nothing written or charged)", () => {
  for (const [route, make] of bombs) {
    it(`through ${route}`, async () => {
      const pdf = await make();
      expect(pdf.length).toBeLessThan(UPLOAD_LIMITS.fileBytes);
      expect(await refusedUpload(pdf)).toBe(
        '"bomb.pdf" has a compressed stream that decodes to more than 8 MB, the most one may (a PDF of text needs far less).',
      );
      // What PDF.js decoded was counted, and it stopped at the stream's bound: nothing decoded past it.
      const budget = decodeBudget(UPLOAD_LIMITS.pdfStreamDecodedBytes, UPLOAD_LIMITS.pdfDecodedBytes);
      await expect(readPdf("bomb.pdf", pdf, { maxTextChars: MB, deadline: Date.now() + 60_000, budget })).rejects.toMatchObject({ code: "payload_too_large" });
      expect(budget.exceeded).toBe("stream");
      expect(budget.decoded).toBeLessThanOrEqual(UPLOAD_LIMITS.pdfDecodedBytes);
    });
  }

  it("through one stream decoded again and again: the count is of every decoding, not of the file's streams", async () => {
    expect(await refusedUpload(await redrawnFormPdf())).toBe(
      '"bomb.pdf" decodes to more than 64 MB in all (a stream counts each time it is read, a character map by its entries), the most a PDF may.',
    );
  });

  it("through a character map whose ranges expand to 67 million entries, before PDF.js fills them in", async () => {
    const pdf = characterMapPdf();
    expect(pdf.length).toBeLessThan(2_000);
    expect(await refusedUpload(pdf)).toBe(
      '"bomb.pdf" decodes to more than 64 MB in all (a stream counts each time it is read, a character map by its entries), the most a PDF may.',
    );
  });

  it("a PDF within the bounds is still read, its streams decoded through the counter", async () => {
    const text = "The harbor commission approved the dredging budget in March.";
    const content = encoder.encode(`BT /F1 12 Tf 72 720 Td (${text}) Tj ET`);
    const pdf = pdfOf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
      { dictionary: "<< /Filter [/AHx /Fl#61teDecode] >>", data: asciiHex(await deflate(content)) },
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]);
    const budget = decodeBudget(UPLOAD_LIMITS.pdfStreamDecodedBytes, UPLOAD_LIMITS.pdfDecodedBytes);
    expect((await readPdf("fine.pdf", pdf, { maxTextChars: MB, deadline: Date.now() + 60_000, budget })).text).toContain(text);
    expect(budget.decoded).toBeGreaterThan(content.length);
    expect(budget.exceeded).toBeNull();
    expect((await readPdf("plain.pdf", minimalPdf(["Hello harbor."]), { maxTextChars: MB, deadline: Date.now() + 60_000 })).text).toContain("Hello harbor.");
  });
});

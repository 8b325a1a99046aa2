import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WebReader } from "../../src/research/providers/reader/web-reader";
import { minimalPdf, pagedPdf } from "../collections/pdf";
import { concat, latin1 } from "./bytes";

/**
 * What the web reader makes of a body (issue 42, items 4 and 5): a page in the charset it
 * declares, and a PDF on the web read through the same bounded reader uploads use.
 */

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const robots = (host: string) => http.get(`https://${host}/robots.txt`, () => new HttpResponse(null, { status: 404 }));

/** A windows-1252 article: curly quotes, an en dash, accents. */
const CP1252_BODY = Uint8Array.from([
  ...latin1("<p>The mayor said "),
  0x93,
  ...latin1("the caf"),
  0xe9,
  ...latin1(" stays open"),
  0x94,
  ...latin1(" "),
  0x96,
  ...latin1(" a na"),
  0xef,
  ...latin1("ve promise that the harbour committee repeated at every meeting of the year.</p>"),
]);
/** 日本語の記事です。港の委員会は予算を承認しました。 in Shift_JIS. */
const SJIS_SENTENCE = Uint8Array.from([
  0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea, 0x82, 0xcc, 0x8b, 0x4c, 0x8e, 0x96, 0x82, 0xc5, 0x82, 0xb7, 0x81, 0x42, 0x8d, 0x60, 0x82, 0xcc, 0x88, 0xcf, 0x88, 0xf5,
  0x89, 0xef, 0x82, 0xcd, 0x97, 0x5c, 0x8e, 0x5a, 0x82, 0xf0, 0x8f, 0xb3, 0x94, 0x46, 0x82, 0xb5, 0x82, 0xdc, 0x82, 0xb5, 0x82, 0xbd, 0x81, 0x42,
]);

describe("a page's charset", () => {
  it("decodes a windows-1252 page declared in the header, and one declared only in <meta>", async () => {
    const page = (head: string) =>
      concat(latin1(`<html><head>${head}<title>Harbour</title></head><body><article>`), CP1252_BODY, latin1("</article></body></html>"));
    server.use(
      robots("cp1252.example"),
      http.get("https://cp1252.example/header", () => new HttpResponse(page(""), { headers: { "Content-Type": "text/html; charset=windows-1252" } })),
      http.get("https://cp1252.example/meta", () => new HttpResponse(page('<meta charset="windows-1252">'), { headers: { "Content-Type": "text/html" } })),
    );
    const reader = new WebReader();
    for (const path of ["header", "meta"]) {
      const read = await reader.read(`https://cp1252.example/${path}`);
      expect(read?.text).toContain("The mayor said “the café stays open” – a naïve promise");
      expect(read?.text).not.toContain("\uFFFD");
    }
  });

  it("decodes a Shift_JIS page declared by <meta http-equiv>", async () => {
    const html = concat(
      latin1('<html lang="ja"><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"><title>Minato</title></head><body><article><p>'),
      SJIS_SENTENCE,
      SJIS_SENTENCE,
      latin1("</p></article></body></html>"),
    );
    server.use(
      robots("sjis.example"),
      http.get("https://sjis.example/a", () => new HttpResponse(html, { headers: { "Content-Type": "text/html" } })),
    );
    expect((await new WebReader().read("https://sjis.example/a"))?.text).toContain("日本語の記事です。港の委員会は予算を承認しました。");
  });
});

describe("a PDF on the web", () => {
  it("is read when served as application/pdf, with its title, author and date", async () => {
    const pdf = minimalPdf(["The harbor board approved the 2023 budget."], "Harbor report 2023", "/Author (Jane Roe) /CreationDate (D:20230415)");
    server.use(
      robots("pdf.example"),
      http.get("https://pdf.example/report", () => new HttpResponse(pdf, { headers: { "Content-Type": "application/pdf" } })),
    );
    expect(await new WebReader().read("https://pdf.example/report")).toEqual({
      url: "https://pdf.example/report",
      title: "Harbor report 2023",
      text: expect.stringContaining("The harbor board approved the 2023 budget."),
      published_at: "2023-04-15T00:00:00.000Z",
      author: "Jane Roe",
      cached: false,
    });
  });

  it("is read when a .pdf URL is served without a type or as octet-stream, and when an untyped body starts with %PDF-", async () => {
    const pdf = minimalPdf(["Dredging starts in May."]);
    server.use(
      robots("pdf2.example"),
      http.get("https://pdf2.example/untyped.pdf", () => new HttpResponse(pdf)),
      http.get("https://pdf2.example/binary.pdf", () => new HttpResponse(pdf, { headers: { "Content-Type": "application/octet-stream" } })),
      http.get("https://pdf2.example/download", () => new HttpResponse(pdf, { headers: { "Content-Type": "application/octet-stream" } })),
      http.get(
        "https://pdf2.example/archive.zip",
        () => new HttpResponse(new Uint8Array([0x50, 0x4b, 3, 4]), { headers: { "Content-Type": "application/octet-stream" } }),
      ),
    );
    const reader = new WebReader();
    for (const path of ["untyped.pdf", "binary.pdf", "download"]) {
      expect((await reader.read(`https://pdf2.example/${path}`))?.text).toContain("Dredging starts in May.");
    }
    expect(await reader.read("https://pdf2.example/archive.zip")).toBeNull();
  });

  it("keeps a long PDF's first pages (the page's text cap), and reads a PDF past the HTML byte cap whole", async () => {
    // About 350,000 characters of text: past the 200,000 a page keeps, whether the cap or the read's time ends it.
    const line = (page: number) => `Page ${page} of the harbor report says the board approved item ${page} of the plan for the year.`;
    const long = pagedPdf(1200, (page) => [line(page), line(page), line(page)]);
    expect(long.length).toBeGreaterThan(500_000);
    server.use(
      robots("pdf3.example"),
      http.get("https://pdf3.example/long.pdf", () => new HttpResponse(long, { headers: { "Content-Type": "application/pdf" } })),
    );
    // The HTML cap (maxBytes) is smaller than the file: a PDF is read up to its own cap.
    const read = await new WebReader({ maxBytes: 100_000 }).read("https://pdf3.example/long.pdf");
    expect(read?.text).toContain("Page 1 of the harbor report");
    expect(read?.text.length).toBeLessThanOrEqual(200_000);
    expect(read?.text).not.toContain("Page 1200 of");
  });

  it("a PDF with no text (scanned pages), or a broken one, is no page", async () => {
    server.use(
      robots("pdf4.example"),
      http.get("https://pdf4.example/scan.pdf", () => new HttpResponse(minimalPdf([]), { headers: { "Content-Type": "application/pdf" } })),
      http.get("https://pdf4.example/broken.pdf", () => new HttpResponse(latin1("%PDF-1.4 nothing else"), { headers: { "Content-Type": "application/pdf" } })),
    );
    const reader = new WebReader();
    expect(await reader.read("https://pdf4.example/scan.pdf")).toBeNull();
    expect(await reader.read("https://pdf4.example/broken.pdf")).toBeNull();
  });
});

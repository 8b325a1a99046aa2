import { describe, expect, it } from "vitest";
import { checkPdfStreams, filtersOf, inflatedBytes, pdfStreams, plainPageObjects, readPdf } from "../../src/research/collections/pdf";
import { deflatedZeros, flatePdf, minimalPdf, pagedPdf, pdfOf } from "./pdf";

describe("the PDF pre-scan (counts what compressed streams inflate to before PDF.js decodes them)", () => {
  it("reads a dictionary's filters: one name, an array, none", () => {
    expect(filtersOf("<< /Length 10 /Filter /FlateDecode >>")).toEqual(["FlateDecode"]);
    expect(filtersOf("<< /Filter [/ASCII85Decode /FlateDecode] /Length 3 0 R >>")).toEqual(["ASCII85Decode", "FlateDecode"]);
    expect(filtersOf("<< /Filter/Fl/Length 4 >>")).toEqual(["Fl"]);
    expect(filtersOf("<< /Length 10 >>")).toEqual([]);
  });

  it("finds each stream's data and filters, by a direct /Length or else its endstream", async () => {
    const deflated = await deflatedZeros(1000);
    const pdf = pdfOf([
      "<< /Type /Catalog >>",
      { dictionary: "<< /Filter /FlateDecode >>", data: deflated },
      { dictionary: "<< >>", data: new TextEncoder().encode("BT ET") },
    ]);
    const streams = pdfStreams(pdf);
    expect(streams.map((stream) => stream.filters)).toEqual([["FlateDecode"], []]);
    expect(pdf.subarray(streams[0]!.start, streams[0]!.end)).toEqual(deflated);
    expect(new TextDecoder().decode(pdf.subarray(streams[1]!.start, streams[1]!.end))).toBe("BT ET");
    // An indirect /Length: the data runs to `endstream`.
    const indirect = new TextEncoder().encode("1 0 obj\n<< /Length 2 0 R >>\nstream\nBT ET\nendstream\nendobj\n");
    expect(pdfStreams(indirect).map((s) => new TextDecoder().decode(indirect.subarray(s.start, s.end)))).toEqual(["BT ET\n"]);
    expect(pdfStreams(minimalPdf(["Hello"]))).toHaveLength(1);
  });

  it("counts inflated bytes without keeping them, and stops just past the limit", async () => {
    expect(await inflatedBytes(await deflatedZeros(123_456), 1_000_000)).toBe(123_456);
    // 8 KB of input is read at a time, which can inflate to about 8 MB: the count stops within that of the limit.
    const bomb = await deflatedZeros(40 * 1024 * 1024);
    const counted = await inflatedBytes(bomb, 4 * 1024 * 1024);
    expect(counted).toBeGreaterThan(4 * 1024 * 1024);
    expect(counted).toBeLessThan(12 * 1024 * 1024);
  });

  it("counts what corrupt or truncated data gives before its fault, without throwing", async () => {
    const deflated = await deflatedZeros(50_000);
    expect(await inflatedBytes(deflated.subarray(0, deflated.length - 10), 1_000_000)).toBeLessThanOrEqual(50_000);
    expect(await inflatedBytes(new Uint8Array([1, 2, 3, 4, 5]), 1_000_000)).toBe(0);
    expect(pdfStreams(flatePdf(deflated))[0]!.filters).toEqual(["FlateDecode"]);
  });
});

describe("reading a PDF within its bounds", () => {
  it("counts the page objects written plainly in the file (not /Pages), to refuse a long PDF before PDF.js parses it", () => {
    expect(plainPageObjects(pagedPdf(5))).toBe(5);
    expect(plainPageObjects(minimalPdf(["One page."]))).toBe(1);
    expect(plainPageObjects(new TextEncoder().encode("<< /Type/Page>> << /Type /Pages >> << /Type\n/Page /Parent 1 0 R >>"))).toBe(2);
  });

  it("refuses a page tree of more pages than the cap that the plain count misses, from PDF.js's count, before reading a page", async () => {
    // Page objects without /Type (PDF.js takes a leaf of the tree as a page): the plain count sees none.
    const pages = 2001;
    const pdf = pdfOf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${4 + i} 0 R`).join(" ")}] /Count ${pages} >>`,
      { dictionary: "<< >>", data: new TextEncoder().encode("BT ET") },
      ...Array.from({ length: pages }, () => "<< /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R >>"),
    ]);
    expect(plainPageObjects(pdf)).toBe(0);
    await expect(readPdf("tree.pdf", pdf, { maxTextChars: 1_000_000, deadline: Date.now() + 10_000 })).rejects.toMatchObject({
      code: "payload_too_large",
      message: '"tree.pdf" has 2001 pages; a PDF may have at most 2000. Split it into parts.',
    });
  });

  it("stops at the call's deadline, naming the bound and the page reached (413)", async () => {
    await expect(readPdf("slow.pdf", pagedPdf(3), { maxTextChars: 1_000_000, deadline: Date.now() - 1 })).rejects.toMatchObject({
      code: "payload_too_large",
      message:
        'Reading "slow.pdf" took longer than 20 s, the most the PDFs of one call may take (stopped at page 1 of 3). Send fewer or smaller PDFs per call.',
    });
  });

  it("refuses streams it cannot count (LZW, or Flate behind another filter) as 400, before PDF.js decodes them", async () => {
    const lzw = pdfOf(["<< /Type /Catalog >>", { dictionary: "<< /Filter /LZWDecode >>", data: new Uint8Array([0x80, 0x0b, 0x60, 0x50]) }]);
    await expect(checkPdfStreams("old.pdf", lzw)).rejects.toMatchObject({ code: "invalid_request" });
    const hidden = pdfOf(["<< /Type /Catalog >>", { dictionary: "<< /Filter [/ASCIIHexDecode /FlateDecode] >>", data: new TextEncoder().encode("789c>") }]);
    await expect(checkPdfStreams("hex.pdf", hidden)).rejects.toMatchObject({ code: "invalid_request" });
    await expect(checkPdfStreams("fine.pdf", pagedPdf(2))).resolves.toBeUndefined();
  });
});

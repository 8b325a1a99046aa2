import { describe, expect, it } from "vitest";
import { filtersOf, inflatedBytes, pdfStreams } from "../../src/research/collections/pdf";
import { deflatedZeros, flatePdf, minimalPdf, pdfOf } from "./pdf";

describe("the PDF pre-scan (counts what compressed streams inflate to before PDF.js decodes them)", () => {
  it("reads a dictionary's filters: one name, an array, none", () => {
    expect(filtersOf("<< /Length 10 /Filter /FlateDecode >>")).toEqual(["FlateDecode"]);
    expect(filtersOf("<< /Filter [/ASCII85Decode /FlateDecode] /Length 3 0 R >>")).toEqual(["ASCII85Decode", "FlateDecode"]);
    expect(filtersOf("<< /Filter/Fl/Length 4 >>")).toEqual(["Fl"]);
    expect(filtersOf("<< /Length 10 >>")).toEqual([]);
  });

  it("finds each stream's data and filters, by a direct /Length or else its endstream", async () => {
    const deflated = await deflatedZeros(1000);
    const pdf = pdfOf(["<< /Type /Catalog >>", { dictionary: "<< /Filter /FlateDecode >>", data: deflated }, { dictionary: "<< >>", data: new TextEncoder().encode("BT ET") }]);
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
    const bomb = await deflatedZeros(100 * 1024 * 1024);
    const start = Date.now();
    const counted = await inflatedBytes(bomb, 16 * 1024 * 1024);
    expect(counted).toBeGreaterThan(16 * 1024 * 1024);
    expect(counted).toBeLessThan(24 * 1024 * 1024);
    expect(Date.now() - start).toBeLessThan(5_000);
  });

  it("counts what corrupt or truncated data gives before its fault, without throwing", async () => {
    const deflated = await deflatedZeros(50_000);
    expect(await inflatedBytes(deflated.subarray(0, deflated.length - 10), 1_000_000)).toBeLessThanOrEqual(50_000);
    expect(await inflatedBytes(new Uint8Array([1, 2, 3, 4, 5]), 1_000_000)).toBe(0);
    expect(pdfStreams(flatePdf(deflated))[0]!.filters).toEqual(["FlateDecode"]);
  });
});

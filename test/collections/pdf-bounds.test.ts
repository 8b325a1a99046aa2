import { describe, expect, it } from "vitest";
import { pdfDate, plainPageObjects, readPdf } from "../../src/research/providers/pdf/read-pdf";
import { minimalPdf, pagedPdf, pdfOf } from "./pdf";

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
});

describe("reading a PDF for the web reader (keepWhatFits) and its metadata", () => {
  it("stops at the text cap or the deadline with the pages read so far, instead of refusing", async () => {
    const capped = await readPdf("long.pdf", pagedPdf(5), { maxTextChars: 80, deadline: Date.now() + 10_000, keepWhatFits: true });
    expect(capped.complete).toBe(false);
    expect(capped.text.length).toBeLessThanOrEqual(80);
    expect(capped.text).toContain("Page 1 of the harbor report.");
    expect(capped.text).not.toContain("Page 5");
    const late = await readPdf("slow.pdf", pagedPdf(3), { maxTextChars: 1_000_000, deadline: Date.now() - 1, keepWhatFits: true });
    expect(late).toMatchObject({ text: expect.stringContaining("Page 1 of the harbor report."), complete: false });
    expect(late.text).not.toContain("Page 2");
    const whole = await readPdf("short.pdf", pagedPdf(2), { maxTextChars: 1_000_000, deadline: Date.now() + 10_000, keepWhatFits: true });
    expect(whole.complete).toBe(true);
  });

  it("reads the info dictionary's Author and CreationDate", async () => {
    const pdf = minimalPdf(["Harbor report."], "Harbor report 2023", "/Author (Jane Roe) /CreationDate (D:20230415093000+02'00')");
    expect(await readPdf("r.pdf", pdf, { maxTextChars: 1_000_000, deadline: Date.now() + 10_000 })).toMatchObject({
      title: "Harbor report 2023",
      author: "Jane Roe",
      created_at: "2023-04-15T07:30:00.000Z",
      complete: true,
    });
  });

  it("pdfDate: every part after the year is optional; anything else is no date", () => {
    expect(pdfDate("D:2021")).toBe("2021-01-01T00:00:00.000Z");
    expect(pdfDate("D:20211231235959Z")).toBe("2021-12-31T23:59:59.000Z");
    expect(pdfDate("20200102")).toBe("2020-01-02T00:00:00.000Z");
    expect(pdfDate("yesterday")).toBeUndefined();
    expect(pdfDate(undefined)).toBeUndefined();
  });
});

/**
 * What reading one PDF may cost, wherever it comes from (an upload to a collection, a PDF on the
 * web): a Worker isolate has 128 MB and one thread every caller of the isolate shares (issues 26,
 * 39, 42). The upload limits (collections/limits.ts UPLOAD_LIMITS) are these.
 */
const MB = 1024 * 1024;

export const PDF_LIMITS = {
  /** Pages of one PDF at most, read from its page tree before any page is. */
  pages: 2_000,
  /** Bytes one PDF stream may decode to, through any filter: a page's content, a font, an object stream (issue 39). */
  streamDecodedBytes: 8 * MB,
  /** Bytes all of one PDF's decoding may produce together, a stream counted each time PDF.js decodes it. */
  decodedBytes: 64 * MB,
  /** Pixels of an image PDF.js may decode (only Type3 glyphs are images it decodes for text; larger ones are left out). */
  imagePixels: 1_000_000,
  /** Wall-clock time for reading the PDFs of one upload call (pages are read one at a time, yielding between them). */
  uploadReadMs: 20_000,
} as const;

import { describe, expect, it } from "vitest";
import { CHUNK_CHARS, chunkDocument, OVERLAP_CHARS } from "../../src/research/collections/chunking";

describe("chunking a document", () => {
  it("keeps each heading with its section", () => {
    const chunks = chunkDocument("Intro paragraph about the report.\n\n# Findings\n\nTariffs rose in 1890.\n\nTrade fell.\n\n## Method\nWe read the ledgers.");
    expect(chunks.map((chunk) => [chunk.heading, chunk.text])).toEqual([
      [null, "Intro paragraph about the report."],
      ["Findings", "Tariffs rose in 1890.\n\nTrade fell."],
      ["Method", "We read the ledgers."],
    ]);
  });

  it("splits a long section with overlap, so a passage cut in two is whole in one piece", () => {
    const sentences = Array.from({ length: 60 }, (_, i) => `Sentence ${i} of the long section says something about the harbor ${i}.`);
    const chunks = chunkDocument(`# Long\n\n${sentences.join(" ")}`);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expect(chunk.heading).toBe("Long");
      expect(chunk.text.length).toBeLessThanOrEqual(CHUNK_CHARS + OVERLAP_CHARS + 2);
    }
    // Each piece after the first starts with the end of the one before.
    for (let i = 1; i < chunks.length; i++) expect(chunks[i - 1]!.text.slice(-OVERLAP_CHARS)).toContain(chunks[i]!.text.slice(0, 60));
    // Every sentence is in some chunk, whole.
    for (const sentence of sentences) expect(chunks.some((chunk) => chunk.text.includes(sentence))).toBe(true);
  });

  it("cuts text without any punctuation at spaces, and gives nothing for empty text", () => {
    const chunks = chunkDocument("word ".repeat(1000));
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.every((chunk) => chunk.text.length <= CHUNK_CHARS + OVERLAP_CHARS + 2)).toBe(true);
    expect(chunkDocument("  \n\n ")).toEqual([]);
  });
});

/**
 * A document's searchable chunks. Sections stay whole with their heading (a markdown `#` line or a
 * short line followed by a blank one is read as a heading) up to CHUNK_CHARS; a longer section is
 * split between paragraphs, or sentences when a paragraph is longer still, and each piece after
 * the first repeats the end of the one before (OVERLAP_CHARS), so a passage cut in two is still
 * found whole in one of them. Search ranks chunks; research reads the whole document, so a chunk
 * is only ever where a document is found, never the limit of what is cited.
 */

export interface Chunk {
  position: number;
  heading: string | null;
  text: string;
}

export const CHUNK_CHARS = 1500;
export const OVERLAP_CHARS = 200;

const HEADING = /^#{1,6}\s+(.+?)\s*#*$/;

interface Section {
  heading: string | null;
  paragraphs: string[];
}

function sections(text: string): Section[] {
  const out: Section[] = [{ heading: null, paragraphs: [] }];
  for (const block of text.replace(/\r\n?/g, "\n").split(/\n\s*\n/)) {
    const lines = block.trim().split("\n");
    const first = lines[0]?.trim() ?? "";
    const heading = HEADING.exec(first)?.[1];
    if (heading) {
      out.push({ heading, paragraphs: [] });
      const rest = lines.slice(1).join("\n").trim();
      if (rest) out.at(-1)!.paragraphs.push(rest);
    } else if (block.trim()) {
      out.at(-1)!.paragraphs.push(block.trim());
    }
  }
  return out.filter((section) => section.paragraphs.length > 0 || section.heading);
}

/** Pieces of at most `limit` characters: whole paragraphs, or sentences of a paragraph too long. */
function pieces(paragraphs: string[], limit: number): string[] {
  const units = paragraphs.flatMap((paragraph) =>
    paragraph.length <= limit
      ? [paragraph]
      : (paragraph.match(/[^.!?]+(?:[.!?]+["')\]]*\s*|$)/g) ?? [paragraph]).flatMap((sentence) => hardSplit(sentence.trim(), limit)),
  );
  const out: string[] = [];
  let current = "";
  for (const unit of units.filter(Boolean)) {
    if (current && current.length + unit.length + 2 > limit) {
      out.push(current);
      current = overlapOf(current);
    }
    current = current ? `${current}\n\n${unit}` : unit;
  }
  if (current) out.push(current);
  return out;
}

/** A sentence longer than a chunk (no punctuation in 1500 characters) is cut at spaces. */
function hardSplit(sentence: string, limit: number): string[] {
  const out: string[] = [];
  let rest = sentence;
  while (rest.length > limit) {
    const cut = rest.lastIndexOf(" ", limit) > limit / 2 ? rest.lastIndexOf(" ", limit) : limit;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  return rest ? [...out, rest] : out;
}

/** The end of a piece, from a word boundary, that the next piece starts with. */
function overlapOf(piece: string): string {
  if (piece.length <= OVERLAP_CHARS) return "";
  const tail = piece.slice(-OVERLAP_CHARS);
  const space = tail.indexOf(" ");
  return space >= 0 ? tail.slice(space + 1) : tail;
}

export function chunkDocument(text: string): Chunk[] {
  const chunks: Chunk[] = [];
  for (const section of sections(text)) {
    const body = section.paragraphs.length > 0 ? section.paragraphs : [section.heading ?? ""];
    for (const piece of pieces(body, CHUNK_CHARS)) chunks.push({ position: chunks.length, heading: section.heading, text: piece });
  }
  return chunks;
}

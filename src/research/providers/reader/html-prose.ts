import { decodeEntities } from "../../../lib/html-entities";

/**
 * The guard extractor's second half (html.ts collects the text with marks): soft-dropped
 * segments kept or dropped by their share of the prose around them, then line by line what
 * reads as prose, link lines and repeated runs dropped, table rows kept as cells.
 */

/** Marks in the collected text (control characters no page text keeps): link text, a table cell, a soft-dropped element. */
export const LINK_OPEN = "\u0001";
export const LINK_CLOSE = "\u0002";
export const CELL = "\u0003";
export const SOFT_OPEN = "\u0004";
export const SOFT_CLOSE = "\u0005";
/** A line of a <pre> block: kept as it is, whatever its words. */
export const CODE = "\u0006";
// biome-ignore lint/suspicious/noControlCharactersInRegex: the link marks are control characters on purpose (no page text keeps them)
const LINK_MARK = /[\u0001\u0002]/g;

// Soft-dropped elements: kept when they hold at least half the prose of what encloses them.

interface Segment {
  /** Text and nested segments, in order. */
  pieces: (string | Segment)[];
  prose: number;
}

/** The collected text as a tree of soft-dropped segments, each kept or dropped by its share of its parent's prose. */
export function keptText(collected: string): string {
  const root: Segment = { pieces: [], prose: 0 };
  const open: Segment[] = [root];
  let from = 0;
  for (let i = 0; i <= collected.length; i++) {
    const char = collected[i];
    if (i < collected.length && char !== SOFT_OPEN && char !== SOFT_CLOSE) continue;
    const current = open[open.length - 1]!;
    if (i > from) current.pieces.push(collected.slice(from, i));
    from = i + 1;
    if (char === SOFT_OPEN) {
      const segment: Segment = { pieces: [], prose: 0 };
      current.pieces.push(segment);
      open.push(segment);
    } else if (char === SOFT_CLOSE && open.length > 1) open.pop();
  }
  if (open.length === 1 && root.pieces.every((piece) => typeof piece === "string")) return collected; // nothing soft-dropped
  measure(root);
  const out: string[] = [];
  const emit = (segment: Segment) => {
    for (const piece of segment.pieces) {
      if (typeof piece === "string") out.push(piece);
      else if (piece.prose > 0 && piece.prose * 2 >= segment.prose) emit(piece);
      else out.push("\n");
    }
  };
  emit(root);
  return out.join("");
}

function measure(segment: Segment): number {
  let prose = 0;
  for (const piece of segment.pieces) prose += typeof piece === "string" ? proseChars(piece) : measure(piece);
  segment.prose = prose;
  return prose;
}

/** Characters of prose in a stretch of collected text: lines that read as prose and are not mostly links. */
function proseChars(stretch: string): number {
  let chars = 0;
  for (const line of readLines(stretch)) if (line.kind === "prose") chars += line.text.length;
  return chars;
}

// ---------------------------------------------------------------------------------------------
// Lines.

/** Scripts written without spaces between words: their characters are counted instead of words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}]/gu;
/** A line ending like a sentence, in the scripts we read (Latin and others, CJK full stops, Arabic and Urdu, Devanagari). */
const SENTENCE_END = /[.!?:。！？．؟۔।॥][\s"'”’»)\]」』）]*$/u;

interface Line {
  text: string;
  /** A row is a table's or a <pre> block's line: kept whatever its words, lines of one block together. */
  kind: "prose" | "row" | "other";
}

/** Does a line read as prose: 6+ words, a sentence's end, or 12+ characters of a script without spaces. */
export function readsAsProse(line: string): boolean {
  if (SENTENCE_END.test(line)) return true;
  if (line.split(" ").length >= 6) return true;
  return (line.match(UNSPACED)?.length ?? 0) >= 12;
}

/** The collected text's lines, with link marks measured and removed, cells joined with " | ". */
function readLines(collected: string): Line[] {
  const lines: Line[] = [];
  let inLink = false;
  for (const raw of decodeEntities(collected).split("\n")) {
    let linkChars = 0;
    let plain = "";
    if (!inLink && raw.indexOf(LINK_OPEN) < 0)
      plain = raw; // no link on this line
    // Stretches between link marks, each inside or outside a link.
    else
      for (let from = 0; ; ) {
        LINK_MARK.lastIndex = from;
        const found = LINK_MARK.exec(raw);
        const to = found ? found.index : raw.length;
        const stretch = raw.slice(from, to);
        plain += stretch;
        if (inLink) linkChars += stretch.replace(/\s+/g, "").length;
        if (!found) break;
        inLink = found[0] === LINK_OPEN;
        from = to + 1;
      }
    if (plain.includes(CODE)) {
      const code = plain.replaceAll(CODE, "").trimEnd();
      if (code.trim()) lines.push({ text: code.replace(/^\s*\n/, ""), kind: linkChars * 2 > code.replace(/\s/g, "").length ? "other" : "row" });
      continue;
    }
    const cells = plain.indexOf(CELL) < 0 ? [squash(plain)].filter(Boolean) : plain.split(CELL).map(squash).filter(Boolean);
    const text = cells.length === 1 ? cells[0]! : cells.join(" | ");
    if (!text) continue;
    const mostlyLinks = linkChars > 0 && linkChars * 2 > text.replace(/[\s|]/g, "").length;
    if (mostlyLinks) lines.push({ text, kind: "other" });
    else if (cells.length >= 2 && plain.trimStart().startsWith(CELL)) lines.push({ text, kind: "row" });
    else lines.push({ text, kind: readsAsProse(text) ? "prose" : "other" });
  }
  return lines;
}

const squash = (text: string) => (/\s\s|[^\S ]/.test(text) ? text.replace(/\s+/g, " ") : text).trim();

/**
 * The kept lines as paragraphs separated by blank lines (a table's rows one a line). A run of
 * lines met before that holds 3+ different ones is a copy of a block already kept (the article
 * carried again for another layout) and is dropped; a paragraph or two repeated are kept.
 */
export function proseOf(collected: string): string {
  const lines = readLines(collected).filter((line) => line.kind !== "other");
  const dropped = repeatedRuns(lines.map((line) => line.text));
  const out: string[] = [];
  let previous: Line["kind"] | null = null;
  lines.forEach((line, index) => {
    if (dropped[index]) return;
    if (out.length > 0) out.push(line.kind === "row" && previous === "row" ? "\n" : "\n\n");
    out.push(line.text);
    previous = line.kind;
  });
  return out.join("");
}

/** Which of these paragraphs are in a run met before holding 3+ different ones: a copy of a block already kept. */
export function repeatedRuns(paragraphs: string[]): boolean[] {
  const lines = paragraphs.map((text) => ({ text }));
  const seen = new Set<string>();
  const repeated = lines.map((line) => {
    const key = line.text.toLowerCase();
    const again = seen.has(key);
    seen.add(key);
    return again;
  });
  const dropped = new Array<boolean>(lines.length).fill(false);
  for (let start = 0; start < lines.length; ) {
    if (!repeated[start]) {
      start++;
      continue;
    }
    let end = start;
    while (end < lines.length && repeated[end]) end++;
    const distinct = new Set(lines.slice(start, end).map((line) => line.text.toLowerCase()));
    if (distinct.size >= 3) dropped.fill(true, start, end);
    start = end;
  }
  return dropped;
}

import { getDocumentProxy } from "unpdf";
import { ApiError } from "../../lib/errors";
import { UPLOAD_LIMITS } from "./limits";

/**
 * A PDF's text and title, read within bounds (issue 26): one 20,000-page PDF used to run the
 * isolate out of memory after 90 s, with every other caller of it waiting. So:
 *  1. before PDF.js sees the file, its compressed streams are inflated chunk by chunk and only
 *     counted (`inflatedBytes`): a flate bomb is refused after ~8 MB of output, memory flat;
 *  2. the page count (the page objects written plainly in the file, then PDF.js's count from the
 *     page tree) is refused above the cap before any page is read;
 *  3. pages are read one at a time (PDF.js's own helpers read them all at once), each released
 *     after use, with a running text cap and a wall-clock deadline, yielding to the event loop
 *     between pages so other requests of the isolate are answered meanwhile.
 */

const MB = 1024 * 1024;
const megabytes = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`;

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const encoder = new TextEncoder();
const STREAM = encoder.encode("stream");
const OBJ = encoder.encode("obj");
const END_STREAM = encoder.encode("endstream");
/** Compressed data is fed to the inflater in pieces this size: a piece inflates to at most ~1,032 times it (8 MB). */
const PIECE = 8 * 1024;
/** How far before a `stream` keyword its dictionary is looked for. */
const DICTIONARY_WINDOW = 16 * 1024;

function startsWithAt(bytes: Uint8Array, word: Uint8Array, at: number): boolean {
  if (at < 0 || at + word.length > bytes.length) return false;
  for (let i = 0; i < word.length; i++) if (bytes[at + i] !== word[i]) return false;
  return true;
}

function indexOfWord(bytes: Uint8Array, word: Uint8Array, from: number): number {
  for (let at = bytes.indexOf(word[0]!, from); at >= 0; at = bytes.indexOf(word[0]!, at + 1)) {
    if (startsWithAt(bytes, word, at)) return at;
  }
  return -1;
}

/** The last `word` that starts in [floor, before), else `floor`. */
function lastIndexOfWord(bytes: Uint8Array, word: Uint8Array, before: number, floor: number): number {
  for (let at = bytes.lastIndexOf(word[0]!, before - 1); at >= floor; at = bytes.lastIndexOf(word[0]!, at - 1)) {
    if (startsWithAt(bytes, word, at)) return at;
  }
  return floor;
}

export interface PdfStream {
  /** The filters named by the stream's dictionary, in order ("FlateDecode", "DCTDecode", ...). */
  filters: string[];
  /** Where the stream's data starts and ends in the file. */
  start: number;
  end: number;
}

/** The names of the /Filter entry of a dictionary's text (a name or an array of names). */
export function filtersOf(dictionary: string): string[] {
  const match = /\/Filter\s*(\[[^\]]*\]|\/[^\s/[\]<>()]+)/.exec(dictionary);
  if (!match) return [];
  return [...match[1]!.matchAll(/\/([^\s/[\]<>()]+)/g)].map((name) => name[1]!);
}

/** Every `stream … endstream` of the file with the filters its dictionary names (a plain scan of the bytes: no object is parsed). */
export function pdfStreams(bytes: Uint8Array): PdfStream[] {
  const streams: PdfStream[] = [];
  const decoder = new TextDecoder();
  let from = 0;
  for (;;) {
    const at = indexOfWord(bytes, STREAM, from);
    if (at < 0) return streams;
    from = at + STREAM.length;
    if (startsWithAt(bytes, END_STREAM, at - 3)) continue; // the end of one
    // The keyword is followed by CRLF or LF (a lone CR is tolerated, as PDF.js does).
    let start = at + STREAM.length;
    if (bytes[start] === 0x0d) start++;
    if (bytes[start] === 0x0a) start++;
    if (start === at + STREAM.length) continue; // "stream" inside some other token
    // The dictionary: back to the `obj` keyword before it (at most DICTIONARY_WINDOW bytes), decoded alone.
    const dictionary = decoder.decode(bytes.subarray(lastIndexOfWord(bytes, OBJ, at, Math.max(0, at - DICTIONARY_WINDOW)), at));
    const length = /\/Length\s+(\d+)\b(?!\s+\d+\s+R)/.exec(dictionary)?.[1];
    let end = length !== undefined && start + Number(length) <= bytes.length ? start + Number(length) : -1;
    // A direct /Length is trusted when `endstream` follows it; otherwise the keyword is looked for.
    if (end < 0 || indexOfWord(bytes.subarray(end, end + 64), END_STREAM, 0) < 0) {
      const found = indexOfWord(bytes, END_STREAM, start);
      end = found < 0 ? bytes.length : found;
    }
    streams.push({ filters: filtersOf(dictionary), start, end });
    from = Math.max(from, end);
  }
}

/**
 * How many bytes zlib data inflates to, counted up to `limit` (then it stops: the answer is over
 * `limit`). The output is only counted, never kept, and pieces go in one at a time, each after the
 * output of the one before was read: workerd's DecompressionStream accepts writes without
 * waiting for its reader, so writing all the data at once inflated all of it into its queue (a
 * 400 KB bomb held 400 MB). A piece inflates to at most ~1,032 times its size. Data that is
 * corrupt or cut short counts what came out before the fault (PDF.js keeps that much too).
 */
export async function inflatedBytes(data: Uint8Array, limit: number): Promise<number> {
  const inflater = new DecompressionStream("deflate");
  const writer = inflater.writable.getWriter();
  const reader = inflater.readable.getReader();
  let total = 0;
  // A read is always pending before a write, so a stream that does wait for its reader never stalls.
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | null = reader.read();
  pending.catch(() => undefined);
  /** Counts what the pieces written so far gave; true once the stream ended or went over the limit. */
  const drain = async (): Promise<boolean> => {
    for (;;) {
      pending ??= reader.read();
      const result = await Promise.race([pending, nextTurn().then(() => null)]);
      if (result === null) return false; // nothing more yet: write the next piece
      pending = null;
      if (result.done) return true;
      total += result.value.byteLength;
      if (total > limit) return true;
    }
  };
  try {
    let finished = false;
    for (let at = 0; at < data.length && !finished; at += PIECE) {
      await writer.write(data.slice(at, at + PIECE));
      finished = await drain();
    }
    if (!finished) {
      await writer.close();
      while (!(await drain()));
    }
  } catch {
    /* corrupt data: what came out before the fault is counted */
  } finally {
    await reader.cancel().catch(() => undefined);
    await writer.abort().catch(() => undefined);
  }
  return total;
}

const TYPE = encoder.encode("/Type");
const PAGE = encoder.encode("/Page");
const isSpace = (byte: number | undefined) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c || byte === 0x00;
/** Bytes that end a PDF name (whitespace and delimiters). */
const endsName = (byte: number | undefined) => byte === undefined || isSpace(byte) || "/[]<>(){}%".includes(String.fromCharCode(byte));

/**
 * Page objects (`/Type /Page`) written plainly in the file: a lower bound of its pages (pages kept
 * in compressed object streams are not seen; PDF.js's count is checked after). A file with more
 * than the cap is refused without PDF.js parsing it at all.
 */
export function plainPageObjects(bytes: Uint8Array): number {
  let pages = 0;
  for (let at = indexOfWord(bytes, TYPE, 0); at >= 0; at = indexOfWord(bytes, TYPE, at + TYPE.length)) {
    let next = at + TYPE.length;
    while (isSpace(bytes[next])) next++;
    if (startsWithAt(bytes, PAGE, next) && endsName(bytes[next + PAGE.length])) pages++;
  }
  return pages;
}

/** Filters PDF.js would decode that the scan cannot count: a bomb could hide behind them, so such files are refused. */
const UNCOUNTED = new Set(["LZWDecode", "LZW"]);
const isFlate = (filter: string) => filter === "FlateDecode" || filter === "Fl";

/**
 * Refuses a PDF whose compressed streams inflate beyond the bounds (413), or that compresses
 * with something the scan cannot count (400), before PDF.js decodes anything.
 */
export async function checkPdfStreams(name: string, bytes: Uint8Array): Promise<void> {
  let total = 0;
  for (const stream of pdfStreams(bytes)) {
    const uncounted = stream.filters.find((filter, index) => UNCOUNTED.has(filter) || (index > 0 && isFlate(filter)));
    if (uncounted) {
      throw ApiError.invalid(
        `"${name}" compresses a stream with ${stream.filters.join(" + ")}, which we do not read; save it again as a current PDF (Flate compression).`,
      );
    }
    if (!isFlate(stream.filters[0] ?? "")) continue;
    const limit = Math.min(UPLOAD_LIMITS.pdfStreamDecodedBytes, UPLOAD_LIMITS.pdfDecodedBytes - total);
    const size = await inflatedBytes(bytes.subarray(stream.start, stream.end), limit);
    if (size > UPLOAD_LIMITS.pdfStreamDecodedBytes) {
      throw new ApiError(
        "payload_too_large",
        `"${name}" has a compressed stream that inflates to more than ${megabytes(UPLOAD_LIMITS.pdfStreamDecodedBytes)}, the most one may (a PDF of text needs far less).`,
      );
    }
    total += size;
    if (total > UPLOAD_LIMITS.pdfDecodedBytes) {
      throw new ApiError("payload_too_large", `"${name}" inflates to more than ${megabytes(UPLOAD_LIMITS.pdfDecodedBytes)}, the most a PDF may.`);
    }
  }
}

/** unpdf's merge of page texts: line breaks kept, other whitespace collapsed, at most one blank line. */
const mergePages = (texts: string[]) =>
  texts
    .join("\n")
    .replace(/[^\S\n]+/g, " ")
    .replace(/ ?\n ?/g, "\n")
    .replace(/\n{3,}/g, "\n\n");

export interface PdfReadBounds {
  /** Characters of text at most (a document's text cap: beyond it the document would be refused anyway). */
  maxTextChars: number;
  /** When reading must have finished (Date.now() milliseconds), shared by the files of a call. */
  deadline: number;
}

/** The text and title (from the PDF's metadata) of a PDF, within the bounds of UPLOAD_LIMITS. */
export async function readPdf(name: string, bytes: Uint8Array, bounds: PdfReadBounds): Promise<{ text: string; title?: string }> {
  const tooManyPages = (pages: number, atLeast = "") =>
    new ApiError("payload_too_large", `"${name}" has ${atLeast}${pages} pages; a PDF may have at most ${UPLOAD_LIMITS.pdfPages}. Split it into parts.`);
  const plainPages = plainPageObjects(bytes);
  if (plainPages > UPLOAD_LIMITS.pdfPages) throw tooManyPages(plainPages, "at least ");
  await checkPdfStreams(name, bytes);
  const unreadable = () => ApiError.invalid(`"${name}" could not be read as a PDF.`);
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(bytes, { disableFontFace: true, useSystemFonts: false, verbosity: 0 });
  } catch {
    throw unreadable();
  }
  try {
    if (pdf.numPages > UPLOAD_LIMITS.pdfPages) throw tooManyPages(pdf.numPages);
    const texts: string[] = [];
    let length = 0;
    for (let number = 1; number <= pdf.numPages; number++) {
      if (Date.now() > bounds.deadline) {
        throw new ApiError(
          "payload_too_large",
          `Reading "${name}" took longer than ${UPLOAD_LIMITS.pdfReadMs / 1000} s, the most the PDFs of one call may take (stopped at page ${number} of ${pdf.numPages}). Send fewer or smaller PDFs per call.`,
        );
      }
      let text: string;
      try {
        const page = await pdf.getPage(number);
        const content = await page.getTextContent();
        text = content.items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : "")).join("");
        page.cleanup();
      } catch {
        throw unreadable();
      }
      length += text.length + 1;
      if (length > bounds.maxTextChars) {
        throw new ApiError(
          "payload_too_large",
          `"${name}" has more than ${megabytes(bounds.maxTextChars)} of text (at page ${number} of ${pdf.numPages}); a document may have at most ${megabytes(bounds.maxTextChars)}. Split it into parts.`,
        );
      }
      texts.push(text);
      await nextTurn(); // other requests of the isolate are answered between pages
    }
    let title: string | undefined;
    try {
      const info = (await pdf.getMetadata()).info as { Title?: unknown } | undefined;
      title = typeof info?.Title === "string" ? info.Title.trim() : undefined;
    } catch {
      title = undefined; // a broken info dictionary costs the title only
    }
    return { text: mergePages(texts), title };
  } finally {
    await pdf.loadingTask.destroy().catch(() => undefined); // the document and its worker-side objects
  }
}

import { getDocumentProxy } from "unpdf";
import { ApiError } from "../../../lib/errors";
import { type DecodeBudget, decodeBudget, withDecodeBudget } from "./decode-budget";
import { PDF_LIMITS } from "./limits";

/**
 * A PDF's text and title, read within bounds (issue 26): one 20,000-page PDF used to run the
 * isolate out of memory after 90 s, with every other caller of it waiting. So:
 *  1. every byte PDF.js decodes is charged to the document's decode budget before it is
 *     allocated (./decode-budget.ts), whatever filter, name or object it comes through: a
 *     bomb is refused after ~8 MB of output (issue 39: a pre-scan of the file was walked around);
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
  /** What decoding may produce (by default PDF_LIMITS'); a test passes its own to see what was decoded. */
  budget?: DecodeBudget;
  /**
   * Reaching the text cap or the deadline ends the read with the pages read so far (the first page
   * is always read), instead of
   * refusing the document: a PDF on the web is evidence, and its first pages are worth having
   * (the web reader). The page-count and decode bounds still refuse it.
   */
  keepWhatFits?: boolean;
}

/** A PDF's text and what its info dictionary says of it. */
export interface PdfText {
  text: string;
  title?: string;
  author?: string;
  /** The info dictionary's CreationDate, as ISO 8601. */
  created_at?: string;
  /** False when the read stopped at the text cap or the deadline (`keepWhatFits`). */
  complete: boolean;
}

/** 413 naming the decode bound that was passed. */
function overDecodeBound(name: string, budget: DecodeBudget): ApiError {
  if (budget.exceeded === "stream") {
    return new ApiError(
      "payload_too_large",
      `"${name}" has a compressed stream that decodes to more than ${megabytes(budget.streamBytes)}, the most one may (a PDF of text needs far less).`,
    );
  }
  return new ApiError(
    "payload_too_large",
    `"${name}" decodes to more than ${megabytes(budget.totalBytes)} in all (a stream counts each time it is read, a character map by its entries), the most a PDF may.`,
  );
}

/** The text and metadata of a PDF, within the bounds of PDF_LIMITS. */
export async function readPdf(name: string, bytes: Uint8Array, bounds: PdfReadBounds): Promise<PdfText> {
  const plainPages = plainPageObjects(bytes);
  if (plainPages > PDF_LIMITS.pages) throw tooManyPages(name, plainPages, "at least ");
  const budget = bounds.budget ?? decodeBudget(PDF_LIMITS.streamDecodedBytes, PDF_LIMITS.decodedBytes);
  try {
    return await withDecodeBudget(budget, () => extract(name, bytes, bounds, budget));
  } catch (error) {
    // PDF.js may turn the refusal into any error (or none): the budget's state says what happened.
    if (budget.exceeded) throw overDecodeBound(name, budget);
    throw error;
  }
}

const tooManyPages = (name: string, pages: number, atLeast = "") =>
  new ApiError("payload_too_large", `"${name}" has ${atLeast}${pages} pages; a PDF may have at most ${PDF_LIMITS.pages}. Split it into parts.`);

async function extract(name: string, bytes: Uint8Array, bounds: PdfReadBounds, budget: DecodeBudget): Promise<PdfText> {
  /** PDF.js logs a refused decode and goes on: checked after each of its steps. */
  const checkBudget = () => {
    if (budget.exceeded) throw overDecodeBound(name, budget);
  };
  const unreadable = () => ApiError.invalid(`"${name}" could not be read as a PDF.`);
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(bytes, {
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
      // Images are not text; one is decoded only inside a Type3 glyph, and its pixels are bounded here.
      maxImageSize: PDF_LIMITS.imagePixels,
    });
  } catch {
    checkBudget();
    throw unreadable();
  }
  try {
    checkBudget();
    if (pdf.numPages > PDF_LIMITS.pages) throw tooManyPages(name, pdf.numPages);
    const texts: string[] = [];
    let length = 0;
    let complete = true;
    for (let number = 1; number <= pdf.numPages; number++) {
      // keepWhatFits always reads the first page: opening a document may take the time alone.
      if (Date.now() > bounds.deadline && !(bounds.keepWhatFits && number === 1)) {
        if (bounds.keepWhatFits) {
          complete = false;
          break;
        }
        throw new ApiError(
          "payload_too_large",
          `Reading "${name}" took longer than ${PDF_LIMITS.uploadReadMs / 1000} s, the most the PDFs of one call may take (stopped at page ${number} of ${pdf.numPages}). Send fewer or smaller PDFs per call.`,
        );
      }
      let text: string;
      try {
        const page = await pdf.getPage(number);
        const content = await page.getTextContent();
        text = content.items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : "")).join("");
        page.cleanup();
      } catch {
        checkBudget();
        throw unreadable();
      }
      checkBudget();
      length += text.length + 1;
      if (length > bounds.maxTextChars && bounds.keepWhatFits) {
        texts.push(text.slice(0, Math.max(0, text.length - (length - bounds.maxTextChars))));
        complete = false;
        break;
      }
      if (length > bounds.maxTextChars) {
        throw new ApiError(
          "payload_too_large",
          `"${name}" has more than ${megabytes(bounds.maxTextChars)} of text (at page ${number} of ${pdf.numPages}); a document may have at most ${megabytes(bounds.maxTextChars)}. Split it into parts.`,
        );
      }
      texts.push(text);
      await nextTurn(); // other requests of the isolate are answered between pages
    }
    let info: { Title?: unknown; Author?: unknown; CreationDate?: unknown } | undefined;
    try {
      info = (await pdf.getMetadata()).info as typeof info;
    } catch {
      info = undefined; // a broken info dictionary costs the metadata only
    }
    checkBudget();
    const field = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : undefined);
    return {
      text: mergePages(texts),
      title: field(info?.Title),
      author: field(info?.Author),
      created_at: pdfDate(field(info?.CreationDate)),
      complete,
    };
  } finally {
    await pdf.loadingTask.destroy().catch(() => undefined); // the document and its worker-side objects
  }
}

/**
 * A PDF date string (`D:YYYYMMDDHHmmSSOHH'mm'`, ISO 32000-1 section 7.9.4; every part after the
 * year optional) as ISO 8601, or undefined when it is not one.
 */
export function pdfDate(value: string | undefined): string | undefined {
  const match = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*(Z|[+-])?\s*(\d{2})?'?(\d{2})?'?/.exec(value ?? "");
  if (!match) return undefined;
  const [, year, month = "01", day = "01", hour = "00", minute = "00", second = "00", sign, offsetHours = "00", offsetMinutes = "00"] = match;
  const zone = !sign || sign === "Z" ? "Z" : `${sign}${offsetHours}:${offsetMinutes}`;
  const date = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}${zone}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

import { AsyncLocalStorage } from "node:async_hooks";
import { getResolvedPDFJS } from "unpdf";

/**
 * Every byte PDF.js decodes, counted where it decodes it (issue 39). A scan of the file before
 * PDF.js guessed which streams it would decode and through which filters; every guess it got
 * wrong let a bomb through (an indirect /Filter, a #xx name escape, a key after the filter that
 * contains "obj", /F for /Filter, RunLengthDecode, LZW, a stream inside an object stream, one
 * 7 MB form drawn 20 times). So the count is not of the file but of PDF.js's own work: each of
 * its decoders (Flate, LZW, RunLength, ASCIIHex, ASCII85, CCITT, predictors, decryption, the
 * concatenation of a page's contents) grows its output through `DecodeStream.ensureBuffer`, and
 * that method is wrapped to charge the growth to the document's budget *before* the buffer is
 * allocated. Past a bound it throws inside PDF.js and every later decode of the document throws
 * at once; the reader then answers 413 from the budget's state, whatever PDF.js did with the
 * error. The few decoders that do not grow through ensureBuffer are switched off:
 *  - the runtime's DecompressionStream, which PDF.js uses for Flate when it can (it inflates a
 *    whole stream into memory, uncounted): PDF.js's own inflater does the same work, counted;
 *  - BrotliDecode (PDF 2.0, 2025; no producer we know writes it): decoded whole in one call;
 *  - images (DCT, JPX, JBIG2): never text, and their decoders size memory from the image's own
 *    header. Text extraction decodes images only inside Type3 glyphs.
 * One thing expands without a decoder: a character map's ranges (`<00000000> <00FFFFFE>` in a
 * 1 KB ToUnicode map is 16.7 million entries; four took 150 s and 4 GB in Node). Each range is
 * charged to the document's total, ENTRY_BYTES an entry, before PDF.js fills it in.
 * PDF.js keeps these classes to itself; scripts/patch-pdfjs.mjs (run by npm install) makes its
 * bundle hand them over. Without it, PDFs are refused (nothing is decoded uncounted).
 */

/** Must match KEY in scripts/patch-pdfjs.mjs. */
const DECODERS_KEY = "deep-research.pdfjs-decoders";
/** What one character map entry holds (a slot of a JS array and, for text, a short string). */
const ENTRY_BYTES = 16;

export interface DecodeBudget {
  /** Bytes one stream may decode to (what one decoder's buffer may hold). */
  readonly streamBytes: number;
  /** Bytes all the document's decoding may produce, counted each time a stream is decoded (CPU). */
  readonly totalBytes: number;
  /** Decoded so far. */
  decoded: number;
  /** The bound that was passed, once one was: nothing more is decoded after it. */
  exceeded: "stream" | "document" | null;
}

export function decodeBudget(streamBytes: number, totalBytes: number): DecodeBudget {
  return { streamBytes, totalBytes, decoded: 0, exceeded: null };
}

/** Thrown inside PDF.js: it may catch and log it; the budget's state is what the reader answers from. */
class DecodeRefused extends Error {}

const budgets = new AsyncLocalStorage<DecodeBudget>();
/** What each decoder was charged for so far (its buffer's requested length). */
const charged = new WeakMap<object, number>();

/** The current document's budget; a decode outside readPdf (or one whose context was lost) is refused, never let through uncounted. */
function currentBudget(): DecodeBudget {
  const budget = budgets.getStore();
  if (!budget) throw new DecodeRefused("A PDF stream was decoded outside a decode budget.");
  if (budget.exceeded) throw new DecodeRefused(`The ${budget.exceeded} decode bound was already passed.`);
  return budget;
}

function charge(decoder: object, requested: number): void {
  const budget = currentBudget();
  const before = charged.get(decoder) ?? 0;
  if (requested <= before) return;
  if (requested > budget.streamBytes) budget.exceeded = "stream";
  else if (budget.decoded + requested - before > budget.totalBytes) budget.exceeded = "document";
  if (budget.exceeded) throw new DecodeRefused(`The ${budget.exceeded} decode bound was passed.`);
  budget.decoded += requested - before;
  charged.set(decoder, requested);
}

/** A character map range of `low`..`high`, charged to the document's total. */
function chargeRange(low: unknown, high: unknown): void {
  const budget = currentBudget();
  const entries = typeof low === "number" && typeof high === "number" ? Math.max(0, high - low + 1) : 0;
  if (budget.decoded + entries * ENTRY_BYTES > budget.totalBytes) {
    budget.exceeded = "document";
    throw new DecodeRefused("The document decode bound was passed.");
  }
  budget.decoded += entries * ENTRY_BYTES;
}

type Prototype = Record<string, unknown>;
interface Decoders {
  DecodeStream: { prototype: Prototype & { ensureBuffer(this: object, requested: number): Uint8Array } };
  FlateStream: { prototype: Prototype };
  BrotliStream: { prototype: Prototype };
  JpegStream: { prototype: Prototype };
  JpxStream: { prototype: Prototype };
  Jbig2Stream: { prototype: Prototype };
  CMap: { prototype: Record<string, (this: object, low: unknown, high: unknown, target: unknown) => unknown> };
}

let installed = false;

/** Wraps PDF.js's decoders once per isolate (after its bundle has loaded). */
async function installCounting(): Promise<void> {
  if (installed) return;
  await getResolvedPDFJS();
  if (installed) return; // another call installed it meanwhile
  const expose = (globalThis as Record<symbol, unknown>)[Symbol.for(DECODERS_KEY)];
  if (typeof expose !== "function") {
    throw new Error("PDF.js's decoders are not reachable (scripts/patch-pdfjs.mjs did not run): PDFs are not read without a decode budget.");
  }
  const decoders = expose() as Decoders;
  const ensureBuffer = decoders.DecodeStream.prototype.ensureBuffer;
  decoders.DecodeStream.prototype.ensureBuffer = function (this: object, requested: number) {
    charge(this, requested);
    return ensureBuffer.call(this, requested);
  };
  for (const decoder of [decoders.FlateStream, decoders.BrotliStream]) {
    // Callers fall back to the synchronous decoder (ensureBuffer) when these say no.
    Object.defineProperty(decoder.prototype, "isAsync", { get: () => false, configurable: true });
    decoder.prototype.asyncGetBytes = async () => null;
  }
  decoders.BrotliStream.prototype.readBlock = () => {
    throw new DecodeRefused("BrotliDecode streams are not read.");
  };
  for (const image of [decoders.JpegStream, decoders.JpxStream, decoders.Jbig2Stream]) {
    image.prototype.decodeImage = () => {
      throw new DecodeRefused("Images are not decoded for text.");
    };
  }
  for (const method of ["mapCidRange", "mapBfRange", "mapBfRangeToArray"]) {
    const map = decoders.CMap.prototype[method]!;
    decoders.CMap.prototype[method] = function (this: object, low: unknown, high: unknown, target: unknown) {
      chargeRange(low, high);
      return map.call(this, low, high, target);
    };
  }
  installed = true;
}

/** Runs `work` (everything PDF.js does for one document) with its decoding charged to `budget`. */
export async function withDecodeBudget<T>(budget: DecodeBudget, work: () => Promise<T>): Promise<T> {
  await installCounting();
  return budgets.run(budget, work);
}

import { readPdf } from "../pdf/read-pdf";
import type { Page } from "../types";
import { decodePage } from "./charset";
import { extractPage } from "./extract";

/** Text kept per page: enough for any article, bounded so one page cannot flood the evidence. */
export const MAX_TEXT_CHARS = 200_000;

/**
 * Bytes of a PDF read at most. A PDF cut short cannot be parsed (its cross-reference table is at
 * the end), so the cap is the whole file's; most reports and papers fit. Its decoding is bounded by
 * PDF_LIMITS (providers/pdf/limits.ts) like an upload's.
 */
export const MAX_PDF_BYTES = 10 * 1024 * 1024;

/** Time one PDF's pages may take to read; past it, the pages read so far are the page's text. */
const PDF_READ_MS = 8_000;

export type BodyKind = "html" | "pdf" | "text";

const PDF_SIGNATURE = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

/**
 * What a response body is, from its Content-Type and URL, before the body is read: "sniff" when
 * it has no type, or a generic binary one, and no `.pdf` name (then `sniffedKind` decides from its
 * first bytes); null for anything else (images, archives, ...), which is not downloaded.
 */
export function bodyKind(contentType: string, url: URL): BodyKind | "sniff" | null {
  const type = mediaType(contentType);
  if (type === "application/pdf" || type === "application/x-pdf") return "pdf";
  if (type.includes("html")) return "html";
  if (type === "text/plain" || type.includes("markdown")) return "text";
  if (type !== "" && type !== "application/octet-stream" && type !== "binary/octet-stream") return null;
  return /\.pdf$/i.test(url.pathname) ? "pdf" : "sniff";
}

/** An untyped or generic binary body's kind from its first bytes: a PDF, else (untyped only) HTML or text. */
export function sniffedKind(contentType: string, bytes: Uint8Array): BodyKind | null {
  if (PDF_SIGNATURE.every((byte, i) => bytes[i] === byte)) return "pdf";
  if (mediaType(contentType) !== "") return null;
  return /^\s*<(!doctype|html)/i.test(new TextDecoder().decode(bytes.subarray(0, 64))) ? "html" : "text";
}

const mediaType = (contentType: string) => contentType.split(";")[0]!.trim().toLowerCase();

/**
 * A read page from its body: HTML to its main text and metadata (./extract.ts), in the charset
 * it declares (./charset.ts); plain text and markdown as they are (a markdown `# ` heading is
 * the title); a PDF's text through the bounded PDF reader, its first pages when it is long.
 * Null when nothing readable comes out.
 */
export async function pageFromBody(kind: BodyKind, bytes: Uint8Array, contentType: string, url: string, target: URL): Promise<Page | null> {
  const fallbackTitle = decodeURIComponent(target.pathname.split("/").filter(Boolean).pop() ?? target.hostname);
  if (kind === "pdf") return pdfPage(bytes, url, fallbackTitle);
  const { text } = decodePage(bytes, contentType, kind === "html");
  if (kind === "html") {
    const page = extractPage(text, target.toString());
    if (!page.text.trim()) return null;
    return {
      url,
      title: page.title || target.hostname + target.pathname,
      text: page.text.slice(0, MAX_TEXT_CHARS),
      cached: false,
      ...(page.published_at ? { published_at: page.published_at } : {}),
      ...(page.author ? { author: page.author } : {}),
    };
  }
  const heading = /^#\s+(.+)$/m.exec(text)?.[1]?.trim();
  return { url, title: heading ?? fallbackTitle, text: text.slice(0, MAX_TEXT_CHARS), cached: false };
}

async function pdfPage(bytes: Uint8Array, url: string, fallbackTitle: string): Promise<Page | null> {
  try {
    const pdf = await readPdf(fallbackTitle, bytes, { maxTextChars: MAX_TEXT_CHARS, deadline: Date.now() + PDF_READ_MS, keepWhatFits: true });
    if (!pdf.text.trim()) return null; // scanned pages: no text without OCR
    return {
      url,
      title: pdf.title || fallbackTitle,
      text: pdf.text,
      cached: false,
      ...(pdf.created_at ? { published_at: pdf.created_at } : {}),
      ...(pdf.author ? { author: pdf.author } : {}),
    };
  } catch {
    return null; // not a PDF after all, or past a page-count or decode bound
  }
}

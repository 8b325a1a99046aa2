import { ApiError } from "../../lib/errors";
import { extractPage } from "../providers/reader/extract";
import { UPLOAD_LIMITS } from "./limits";
import { readPdf } from "../providers/pdf/read-pdf";
import { DocumentInputSchema, type DocumentInput, MAX_DOCUMENT_BYTES, MAX_DOCUMENTS_PER_CALL } from "./shapes";

/** An uploaded file's size at most; beyond it, 413 payload_too_large. */
export const MAX_FILE_BYTES = UPLOAD_LIMITS.fileBytes;

/** The file types an upload may carry, by extension (the part's Content-Type is the fallback). */
const KINDS: Record<string, "text" | "markdown" | "html" | "pdf" | "jsonl"> = {
  txt: "text",
  text: "text",
  md: "markdown",
  markdown: "markdown",
  html: "html",
  htm: "html",
  pdf: "pdf",
  jsonl: "jsonl",
  ndjson: "jsonl",
};
const BY_CONTENT_TYPE: Record<string, (typeof KINDS)[string]> = {
  "text/plain": "text",
  "text/markdown": "markdown",
  "text/html": "html",
  "application/pdf": "pdf",
  "application/x-ndjson": "jsonl",
  "application/jsonl": "jsonl",
};

function kindOf(file: File): (typeof KINDS)[string] {
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase();
  const kind = (extension && KINDS[extension]) || BY_CONTENT_TYPE[file.type.split(";")[0]!.trim().toLowerCase()];
  if (!kind) {
    throw new ApiError("unsupported_media_type", `"${file.name}" is not a file type we read: send .txt, .md, .html, .pdf or .jsonl.`);
  }
  return kind;
}

/** The file name without its extension: the title of a document that names none. */
const baseName = (file: File) => file.name.replace(/\.[^.]+$/, "").trim() || "Untitled";

/**
 * The documents of the uploaded files: text and markdown as they are (a markdown file's first
 * `# ` heading is its title), HTML reduced to its main text, PDF text extracted (400 when a PDF
 * has none, e.g. scanned pages), and JSON Lines one document a line. Every file is checked before
 * anything is written, and each is read within the bounds of UPLOAD_LIMITS (PDFs: see ./pdf.ts).
 */
export async function documentsFromFiles(files: File[]): Promise<DocumentInput[]> {
  if (files.length === 0) throw ApiError.invalid("Send the documents as JSON, or one or more `file` parts.");
  for (const file of files) {
    if (file.size > MAX_FILE_BYTES) {
      throw new ApiError("payload_too_large", `"${file.name}" is ${file.size} bytes; an uploaded file may be at most ${MAX_FILE_BYTES} (20 MB).`);
    }
    kindOf(file); // an unsupported type is refused before any file is read
  }
  if (files.length > MAX_DOCUMENTS_PER_CALL) throw tooManyDocuments();
  const documents: DocumentInput[] = [];
  const deadline = Date.now() + UPLOAD_LIMITS.pdfReadMs;
  for (const file of files) {
    documents.push(...(await documentsOf(file, MAX_DOCUMENTS_PER_CALL - documents.length, deadline)));
    if (documents.length > MAX_DOCUMENTS_PER_CALL) throw tooManyDocuments();
  }
  return documents;
}

const tooManyDocuments = () => ApiError.invalid(`At most ${MAX_DOCUMENTS_PER_CALL} documents per call (the files hold more).`);

async function documentsOf(file: File, room: number, deadline: number): Promise<DocumentInput[]> {
  const kind = kindOf(file);
  if (kind === "pdf") return [await pdfDocument(file, deadline)];
  const text = await file.text();
  if (kind === "jsonl") return jsonLines(file.name, text, room);
  if (kind === "html") {
    const page = extractPage(text, "about:blank");
    // The page's date and author, as a web page's: a job citing the document shows and can quote them (issue 42).
    const stated = { ...(page.published_at ? { published_at: page.published_at } : {}), ...(page.author ? { author: page.author } : {}) };
    return [checked(file.name, { title: page.title || baseName(file), text: page.text, ...(Object.keys(stated).length > 0 ? { metadata: stated } : {}) })];
  }
  const heading = kind === "markdown" ? /^#\s+(.+)$/m.exec(text)?.[1]?.trim() : undefined;
  return [checked(file.name, { title: heading || baseName(file), text })];
}

async function pdfDocument(file: File, deadline: number): Promise<DocumentInput> {
  const { text, title } = await readPdf(file.name, new Uint8Array(await file.arrayBuffer()), { maxTextChars: MAX_DOCUMENT_BYTES, deadline });
  if (!text.trim()) throw ApiError.invalid(`"${file.name}" has no text we can extract (a scanned PDF needs OCR first).`);
  return checked(file.name, { title: title || baseName(file), text });
}

/** One document a line; the line after the `room`th document is refused before the rest is looked at (a file is not split into all its lines first). */
function jsonLines(name: string, text: string, room: number): DocumentInput[] {
  const documents: DocumentInput[] = [];
  for (let start = 0, index = 0; start < text.length; index++) {
    const newline = text.indexOf("\n", start);
    const line = text.slice(start, newline < 0 ? text.length : newline);
    start = newline < 0 ? text.length : newline + 1;
    if (!line.trim()) continue;
    if (documents.length >= room) throw tooManyDocuments();
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw ApiError.invalid(`${name}, line ${index + 1}: not JSON.`);
    }
    documents.push(checked(`${name}, line ${index + 1}`, value));
  }
  if (documents.length === 0) throw ApiError.invalid(`${name} has no documents.`);
  return documents;
}

/** A document as the JSON form would have checked it (title, text, url, metadata). */
function checked(where: string, value: unknown): DocumentInput {
  const parsed = DocumentInputSchema.safeParse(value);
  if (!parsed.success) {
    throw ApiError.invalid(`${where}: ${parsed.error.issues.map((issue) => `${issue.path.join(".") || "document"} ${issue.message}`).join("; ")}`);
  }
  return parsed.data;
}

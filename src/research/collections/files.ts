import { extractText, getDocumentProxy, getMeta } from "unpdf";
import { ApiError } from "../../lib/errors";
import { extractHtml } from "../providers/reader/html";
import { DocumentInputSchema, type DocumentInput, MAX_DOCUMENTS_PER_CALL } from "./shapes";

/** An uploaded file's size at most; beyond it, 413 payload_too_large. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

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
 * anything is written.
 */
export async function documentsFromFiles(files: File[]): Promise<DocumentInput[]> {
  if (files.length === 0) throw ApiError.invalid("Send the documents as JSON, or one or more `file` parts.");
  const documents: DocumentInput[] = [];
  for (const file of files) {
    if (file.size > MAX_FILE_BYTES) {
      throw new ApiError("payload_too_large", `"${file.name}" is ${file.size} bytes; an uploaded file may be at most ${MAX_FILE_BYTES} (20 MB).`);
    }
    documents.push(...(await documentsOf(file)));
    if (documents.length > MAX_DOCUMENTS_PER_CALL) throw ApiError.invalid(`At most ${MAX_DOCUMENTS_PER_CALL} documents per call (the files hold more).`);
  }
  return documents;
}

async function documentsOf(file: File): Promise<DocumentInput[]> {
  const kind = kindOf(file);
  if (kind === "pdf") return [await pdfDocument(file)];
  const text = await file.text();
  if (kind === "jsonl") return jsonLines(file.name, text);
  if (kind === "html") {
    const page = await extractHtml(text);
    return [checked(file.name, { title: page.title || baseName(file), text: page.text })];
  }
  const heading = kind === "markdown" ? /^#\s+(.+)$/m.exec(text)?.[1]?.trim() : undefined;
  return [checked(file.name, { title: heading || baseName(file), text })];
}

async function pdfDocument(file: File): Promise<DocumentInput> {
  let text: string;
  let title: string | undefined;
  try {
    const pdf = await getDocumentProxy(new Uint8Array(await file.arrayBuffer()));
    text = (await extractText(pdf, { mergePages: true })).text;
    const info = (await getMeta(pdf)).info as { Title?: unknown } | undefined;
    title = typeof info?.Title === "string" ? info.Title.trim() : undefined;
  } catch {
    throw ApiError.invalid(`"${file.name}" could not be read as a PDF.`);
  }
  if (!text.trim()) throw ApiError.invalid(`"${file.name}" has no text we can extract (a scanned PDF needs OCR first).`);
  return checked(file.name, { title: title || baseName(file), text });
}

function jsonLines(name: string, text: string): DocumentInput[] {
  const documents: DocumentInput[] = [];
  for (const [index, line] of text.split("\n").entries()) {
    if (!line.trim()) continue;
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

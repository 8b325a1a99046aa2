/**
 * Loads documents into the local corpus (wrangler's local D1), or into an account's collection:
 *   npm run corpus:load -- <file.jsonl | folder> [--persist-to <dir>] [--domain <name>]
 *   npm run corpus:load -- <file.jsonl | folder | --sotu> --collection <id> [--base <url>]
 * With --collection the documents go through the public API of a running service
 * (POST /v1/collections/{id}/documents, the key in DEEP_RESEARCH_API_KEY, the service at --base or
 * DEEP_RESEARCH_BASE_URL, default http://127.0.0.1:8787): charged and limited like any upload, and
 * only into a collection of the key's owner. `--sotu` loads the demo State of the Union speeches.
 * A .jsonl file holds one {"url", "title", "text", "domain"?} object per line. A folder is read
 * recursively: .md, .markdown, .txt, .html, .htm and .jsonl files. Files get the url
 * `file://<absolute path>` and the domain `local.corpus` (or --domain), title from the first
 * heading / <title> / file name. Documents are added or replaced by url.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, extname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { plainText } from "../src/lib/plain-text.ts";
import { applyMigrations, openLocalD1, upsertDocuments } from "./lib/local-d1.mjs";
import { sotuDocuments } from "./seed-corpus.mjs";

interface Doc {
  url: string;
  title: string;
  text: string;
  domain: string;
}

const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(name);
  if (index < 0) return undefined;
  const value = args[index + 1];
  if (!value) throw new Error(`${name} needs a value`);
  args.splice(index, 2);
  return value;
};
const persistTo = option("--persist-to");
const defaultDomain = option("--domain") ?? "local.corpus";
const collection = option("--collection");
const base = option("--base") ?? process.env.DEEP_RESEARCH_BASE_URL ?? "http://127.0.0.1:8787";
const sotu = args.includes("--sotu");
const target = args.find((arg) => arg !== "--sotu");
if (!target && !(sotu && collection)) {
  console.error(
    "usage: npm run corpus:load -- <file.jsonl | folder> [--persist-to <dir>] [--domain <name>]\n" +
      "       npm run corpus:load -- <file.jsonl | folder | --sotu> --collection <id> [--base <url>]   (key in DEEP_RESEARCH_API_KEY)",
  );
  process.exit(2);
}

const TEXT_EXTENSIONS = new Set([".md", ".markdown", ".txt", ".html", ".htm", ".jsonl"]);

function walk(path: string): string[] {
  if (statSync(path).isFile()) return [path];
  return readdirSync(path)
    .filter((name) => !name.startsWith("."))
    .flatMap((name) => walk(join(path, name)))
    .filter((file) => TEXT_EXTENSIONS.has(extname(file).toLowerCase()));
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, "") || defaultDomain;
  } catch {
    return defaultDomain;
  }
}

/** HTML to text outside the Workers runtime: drop boilerplate elements and tags. */
function htmlToText(html: string): { title: string; text: string } {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1]?.trim() ?? "";
  const body = html
    .replace(/<(script|style|noscript|nav|header|footer|aside|form|template|svg)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<\/(p|div|li|h[1-6]|tr|section|article|blockquote)>|<br\s*\/?>/gi, "\n")
    .replace(/<[^>]+>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
  return {
    title,
    text: body
      .split("\n")
      .map((line) => line.replace(/\s+/g, " ").trim())
      .filter(Boolean)
      .join("\n"),
  };
}

function documentsOf(file: string): Doc[] {
  const content = readFileSync(file, "utf8");
  const extension = extname(file).toLowerCase();
  if (extension === ".jsonl") {
    return content
      .split("\n")
      .map((line, index) => ({ line: line.trim(), index }))
      .filter(({ line }) => line)
      .map(({ line, index }) => {
        const row = JSON.parse(line) as Partial<Doc>;
        if (!row.url || !row.title || !row.text) throw new Error(`${file}:${index + 1}: needs url, title and text`);
        return { url: row.url, title: row.title, text: row.text, domain: row.domain ?? hostOf(row.url) };
      });
  }
  const url = pathToFileURL(resolve(file)).toString();
  const name = basename(file, extension).replace(/[-_]+/g, " ");
  if (extension === ".html" || extension === ".htm") {
    const page = htmlToText(content);
    return [{ url, title: page.title || name, text: page.text, domain: defaultDomain }];
  }
  const heading = /^#\s+(.+)$/m.exec(content)?.[1]?.trim();
  return [{ url, title: heading ?? name, text: content, domain: defaultDomain }];
}

/** A collection's document: an http(s) url is kept (it replaces by url), a file's path goes to its metadata. */
function asCollectionDocument(doc: Doc) {
  const web = /^https?:\/\//.test(doc.url);
  return { title: doc.title.slice(0, 500), text: doc.text, ...(web ? { url: doc.url } : { metadata: { source: doc.url } }) };
}

/** Posts the documents to the collection in calls of at most 100 documents and ~5 MB. */
async function loadIntoCollection(id: string, docs: Doc[]): Promise<void> {
  const key = process.env.DEEP_RESEARCH_API_KEY;
  if (!key) throw new Error("set DEEP_RESEARCH_API_KEY to an API key of the collection's owner");
  let written = 0;
  for (let start = 0; start < docs.length; ) {
    const batch: ReturnType<typeof asCollectionDocument>[] = [];
    let bytes = 0;
    while (start < docs.length && batch.length < 100 && (batch.length === 0 || bytes + docs[start]!.text.length < 5_000_000)) {
      bytes += docs[start]!.text.length;
      batch.push(asCollectionDocument(docs[start++]!));
    }
    const response = await fetch(`${base.replace(/\/+$/, "")}/v1/collections/${id}/documents`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ documents: batch }),
    });
    const body = (await response.json()) as { ingested?: number; error?: { code: string; message: string } };
    if (!response.ok) throw new Error(`${response.status} ${body.error?.code}: ${body.error?.message}`);
    written += body.ingested ?? 0;
  }
  console.log(`collection ${id}: added or replaced ${written} documents`);
}

// Titles as plain text (no markup, entities decoded), as the service keeps them (issue 26, defect 7).
const documents = [...(sotu ? (sotuDocuments() as Doc[]) : []), ...(target ? walk(resolve(target)).flatMap(documentsOf) : [])]
  .filter((doc) => doc.text.trim())
  .map((doc) => ({ ...doc, title: plainText(doc.title) || basename(doc.url) }));
if (collection) {
  await loadIntoCollection(collection, documents);
} else {
  const { db, dispose } = await openLocalD1(persistTo);
  try {
    await applyMigrations(db);
    await upsertDocuments(db, documents);
    console.log(`corpus: added or replaced ${documents.length} documents`);
  } finally {
    await dispose();
  }
}

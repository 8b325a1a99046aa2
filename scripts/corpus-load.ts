/**
 * Loads documents into the local corpus (wrangler's local D1), into the shared corpus of a running
 * (deployed) service, or into an account's collection:
 *   npm run corpus:load -- <file.jsonl | folder | --sotu> [--persist-to <dir>] [--domain <name>]
 *   npm run corpus:load -- <file.jsonl | folder | --sotu> --admin [--base <url>] [--domain <name>]
 *   npm run corpus:load -- <file.jsonl | folder | --sotu> --collection <id> [--base <url>]
 * With --admin the documents go to the service's admin endpoint (POST /api/admin/corpus, audited),
 * as an admin: an access token in DEEP_RESEARCH_ADMIN_TOKEN, or, in a terminal, the admin's email
 * and password, asked for and sent to POST /api/auth/login. That is how a deployed service's corpus,
 * empty at first, is filled (README "Deploy"). With --collection the documents go through the
 * public API (POST /v1/collections/{id}/documents, the key in DEEP_RESEARCH_API_KEY): charged and
 * limited like any upload, and only into a collection of the key's owner. Both reach the service at
 * --base or DEEP_RESEARCH_BASE_URL, default http://127.0.0.1:8787. `--sotu` loads the demo State of
 * the Union speeches.
 * A .jsonl file holds one {"url", "title", "text", "domain"?} object per line. A folder is read
 * recursively: .md, .markdown, .txt, .html, .htm and .jsonl files. Files get the url
 * `file://<absolute path>` and the domain `local.corpus` (or --domain), title from the first
 * heading / <title> / file name. Documents are added or replaced by url.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, extname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import { plainText } from "../src/lib/plain-text.ts";
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
const admin = args.includes("--admin");
const target = args.find((arg) => arg !== "--sotu" && arg !== "--admin");
if ((!target && !sotu) || (admin && (collection || persistTo))) {
  console.error(
    "usage: npm run corpus:load -- <file.jsonl | folder | --sotu> [--persist-to <dir>] [--domain <name>]   (the local corpus npm start serves)\n" +
      "       npm run corpus:load -- <file.jsonl | folder | --sotu> --admin [--base <url>] [--domain <name>]    (a running service's shared corpus;\n" +
      "                                 an admin's access token in DEEP_RESEARCH_ADMIN_TOKEN, or asked for the admin's email and password)\n" +
      "       npm run corpus:load -- <file.jsonl | folder | --sotu> --collection <id> [--base <url>]           (a collection; key in DEEP_RESEARCH_API_KEY)",
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

const service = base.replace(/\/+$/, "");

/** POSTs the documents to `path` of the service as `{documents}`, in calls of at most 100 documents and ~5 MB; the documents stored. */
async function postInBatches<T>(path: string, token: string, docs: Doc[], shape: (doc: Doc) => T): Promise<number> {
  let written = 0;
  for (let start = 0; start < docs.length; ) {
    const batch: T[] = [];
    let bytes = 0;
    while (start < docs.length && batch.length < 100 && (batch.length === 0 || bytes + docs[start]!.text.length < 5_000_000)) {
      bytes += docs[start]!.text.length;
      batch.push(shape(docs[start++]!));
    }
    const response = await fetch(`${service}${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ documents: batch }),
    });
    const body = (await response.json().catch(() => ({}))) as { ingested?: number; error?: { code: string; message: string } };
    if (!response.ok) {
      const why = `${response.status} ${body.error?.code ?? response.statusText}: ${body.error?.message ?? "(no error body)"}`;
      throw new Error(written > 0 ? `${why} (after ${written} documents were stored; loading again replaces them by url)` : why);
    }
    written += body.ingested ?? 0;
  }
  return written;
}

/** Into one of the key owner's collections, through the public API. */
async function loadIntoCollection(id: string, docs: Doc[]): Promise<void> {
  const key = process.env.DEEP_RESEARCH_API_KEY;
  if (!key) throw new Error("set DEEP_RESEARCH_API_KEY to an API key of the collection's owner");
  const written = await postInBatches(`/v1/collections/${id}/documents`, key, docs, asCollectionDocument);
  console.log(`collection ${id}: added or replaced ${written} documents`);
}

/** Asks the admin's email, then the password without echoing it, on one terminal interface (lines typed ahead are kept). */
async function askLogin(): Promise<{ email: string; password: string }> {
  let muted = false;
  const output = new Writable({
    write: (chunk, _encoding, done) => {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  const lines = rl[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next();
    return line.done ? "" : String(line.value).trim();
  };
  try {
    process.stderr.write(`Admin email at ${service}: `);
    const email = await next();
    process.stderr.write("Password: ");
    muted = true;
    const password = await next();
    muted = false;
    process.stderr.write("\n");
    return { email, password };
  } finally {
    rl.close();
  }
}

/** An admin's access token: DEEP_RESEARCH_ADMIN_TOKEN, or a login with the email and password asked for in a terminal. */
async function adminToken(): Promise<string> {
  const given = process.env.DEEP_RESEARCH_ADMIN_TOKEN?.trim();
  if (given) return given;
  if (!process.stdin.isTTY) {
    throw new Error(
      `--admin needs an admin's access token in DEEP_RESEARCH_ADMIN_TOKEN (POST ${service}/api/auth/login answers one, valid 15 minutes), or a terminal to ask for the admin's email and password`,
    );
  }
  const { email, password } = await askLogin();
  const response = await fetch(`${service}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  const body = (await response.json().catch(() => ({}))) as { access_token?: string; error?: { code: string; message: string } };
  if (!response.ok || !body.access_token) throw new Error(`login refused: ${response.status} ${body.error?.code ?? ""}: ${body.error?.message ?? ""}`);
  return body.access_token;
}

/** Into the shared corpus of a running service, through its admin endpoint. */
async function loadIntoServiceCorpus(docs: Doc[]): Promise<void> {
  const token = await adminToken();
  try {
    const written = await postInBatches("/api/admin/corpus", token, docs, (doc) => ({
      url: doc.url,
      title: doc.title.slice(0, 500),
      text: doc.text,
      domain: doc.domain,
    }));
    console.log(`corpus at ${service}: added or replaced ${written} documents`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/^403 /.test(message))
      throw new Error(`${message}\nThe account is not an admin: put its email in ADMIN_EMAILS (wrangler.toml's [vars]), deploy, then log in again.`);
    if (/^401 /.test(message))
      throw new Error(`${message}\nAn access token lasts 15 minutes: log in again (or leave DEEP_RESEARCH_ADMIN_TOKEN unset to be asked).`);
    throw error;
  }
}

// Titles as plain text (no markup, entities decoded), as the service keeps them (issue 26, defect 7).
const documents = [...(sotu ? (sotuDocuments() as Doc[]) : []), ...(target ? walk(resolve(target)).flatMap(documentsOf) : [])]
  .filter((doc) => doc.text.trim())
  .map((doc) => ({ ...doc, title: plainText(doc.title) || basename(doc.url) }));
if (collection || admin) {
  try {
    await (collection ? loadIntoCollection(collection, documents) : loadIntoServiceCorpus(documents));
  } catch (error) {
    console.error(`corpus:load: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
} else {
  // Only here: it loads wrangler (seconds), which the service's own endpoints need no part of.
  const { applyMigrations, openLocalD1, upsertDocuments } = await import("./lib/local-d1.mjs");
  const { db, dispose } = await openLocalD1(persistTo);
  try {
    await applyMigrations(db);
    await upsertDocuments(db, documents);
    console.log(`corpus: added or replaced ${documents.length} documents`);
  } finally {
    await dispose();
  }
}

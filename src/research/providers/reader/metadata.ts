/**
 * A page's own metadata read from its markup without a DOM (issue 42): published date, author,
 * site name and language, from <meta> tags, JSON-LD and <time datetime>. Used on every page, the
 * guard's included; Readability's own findings fill what this leaves out (./extract.ts).
 */

import { plainText } from "../../../lib/plain-text";
import { decodeEntities } from "../../../lib/html-entities";
import { parseAttributes } from "./html";

export interface PageMetadata {
  published_at?: string;
  author?: string;
  site_name?: string;
  lang?: string;
}

/** Meta names (property, name or itemprop) of a publication date, best first. */
const DATE_NAMES = [
  "article:published_time",
  "og:article:published_time",
  "datepublished",
  "publishdate",
  "publish-date",
  "publish_date",
  "pubdate",
  "parsely-pub-date",
  "sailthru.date",
  "dc.date.issued",
  "dcterms.issued",
  "dc.date",
  "dcterms.date",
  "citation_publication_date",
  "citation_date",
  "date",
];
const AUTHOR_NAMES = ["author", "article:author", "parsely-author", "sailthru.author", "dc.creator", "dcterms.creator", "citation_author", "byl"];
const SITE_NAMES = ["og:site_name", "application-name", "publisher", "dc.publisher"];

/** Markup read for metadata at most: a page's head and its first stretch of body hold it. */
const SCANNED_CHARS = 600_000;

export function pageMetadata(html: string): PageMetadata {
  const source = html.length > SCANNED_CHARS ? html.slice(0, SCANNED_CHARS) : html;
  const metas = new Map<string, string>();
  for (const match of source.matchAll(/<meta\b([^>]*)>/gi)) {
    const attributes = parseAttributes(match[1]!);
    const content = attributes.get("content");
    if (!content?.trim()) continue;
    for (const key of ["property", "name", "itemprop"]) {
      const name = attributes.get(key)?.trim().toLowerCase();
      if (name && !metas.has(name)) metas.set(name, plainText(content));
    }
  }
  const ld = jsonLd(source);
  const metadata: PageMetadata = {};

  const dates = [
    ...DATE_NAMES.slice(0, 2).map((name) => metas.get(name)),
    ld.published,
    ...DATE_NAMES.slice(2).map((name) => metas.get(name)),
    timeElement(source),
  ];
  for (const date of dates) {
    const iso = date ? isoDate(date) : undefined;
    if (iso) {
      metadata.published_at = iso;
      break;
    }
  }
  const author = [...AUTHOR_NAMES.map((name) => metas.get(name)), ld.author].find((value) => value && !/^https?:\/\//i.test(value));
  if (author) metadata.author = cleanAuthor(author);
  const site =
    metas.get("og:site_name") ??
    ld.publisher ??
    SITE_NAMES.slice(1)
      .map((name) => metas.get(name))
      .find(Boolean);
  if (site) metadata.site_name = site;
  const lang = /<html\b([^>]*)>/i.exec(source)?.[1];
  const code = lang ? (parseAttributes(lang).get("lang") ?? parseAttributes(lang).get("xml:lang")) : undefined;
  if (code && /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i.test(code.trim())) metadata.lang = code.trim();
  return metadata;
}

/** "By Jane Doe" and "Jane Doe | Staff writer" → "Jane Doe"; at most 200 characters. */
export function cleanAuthor(value: string): string | undefined {
  const name = plainText(value)
    .replace(/^(by|von|par|por|di|door)\s+/i, "")
    .trim();
  return name ? name.slice(0, 200) : undefined;
}

interface LinkedData {
  published?: string;
  author?: string;
  publisher?: string;
}

/** The first article-like JSON-LD object's datePublished, author and publisher names. */
function jsonLd(source: string): LinkedData {
  const found: LinkedData = {};
  for (const match of source.matchAll(/<script\b[^>]*type\s*=\s*["']?application\/ld\+json["']?[^>]*>([\s\S]*?)<\/script>/gi)) {
    let value: unknown;
    try {
      value = JSON.parse(decodeEntities(match[1]!.trim()).replace(/^<!\[CDATA\[|\]\]>$/g, ""));
    } catch {
      continue;
    }
    const visit = (node: unknown, depth: number) => {
      if (depth > 4 || !node || typeof node !== "object") return;
      if (Array.isArray(node)) {
        for (const item of node) visit(item, depth + 1);
        return;
      }
      const object = node as Record<string, unknown>;
      if (typeof object.datePublished === "string") found.published ??= object.datePublished;
      if (object.author) found.author ??= personName(object.author);
      if (object.publisher) found.publisher ??= personName(object.publisher);
      if (object["@graph"]) visit(object["@graph"], depth + 1);
    };
    visit(value, 0);
  }
  return found;
}

function personName(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim() || undefined;
  const list = Array.isArray(value) ? value : [value];
  const names = list
    .map((item) => (item && typeof item === "object" ? (item as { name?: unknown }).name : item))
    .filter((name): name is string => typeof name === "string" && name.trim() !== "");
  return names.length ? names.map((name) => name.trim()).join(", ") : undefined;
}

/** The `datetime` of the page's first <time> element, one marked `pubdate` first. */
function timeElement(source: string): string | undefined {
  let first: string | undefined;
  for (const match of source.matchAll(/<time\b([^>]*)>/gi)) {
    const attributes = parseAttributes(match[1]!);
    const value = attributes.get("datetime");
    if (!value) continue;
    if (attributes.has("pubdate") || /publish/i.test(attributes.get("itemprop") ?? "")) return value;
    first ??= value;
  }
  return first;
}

/**
 * A date as ISO 8601: a date alone as YYYY-MM-DD, a date with a time in UTC
 * (2024-03-05T14:30:00Z); years before 1900 or after next year are not a page's date.
 */
export function isoDate(value: string): string | undefined {
  const text = value.trim();
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  const dateOnly = compact ? `${compact[1]}-${compact[2]}-${compact[3]}` : /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : undefined;
  const time = Date.parse(dateOnly ? `${dateOnly}T00:00:00Z` : text);
  if (!Number.isFinite(time)) return undefined;
  const date = new Date(time);
  const year = date.getUTCFullYear();
  if (year < 1900 || year > new Date().getUTCFullYear() + 1) return undefined;
  if (dateOnly) return dateOnly === date.toISOString().slice(0, 10) ? dateOnly : undefined;
  return date.toISOString().replace(/\.000Z$/, "Z");
}

/**
 * A web page's title, main text and metadata (issue 42): the one entry for the web reader,
 * collections' HTML uploads and the tests.
 *
 * Main text is Mozilla Readability's, run on linkedom's DOM. A DOM costs memory per element, and
 * a Worker has 128 MB: a page whose markup is estimated (before anything is parsed) to take the
 * DOM past DOM_BUDGET_BYTES is read by the guard instead (./html.ts, one pass, no DOM), and so is
 * a page where Readability finds nothing or too little. See docs/engine.md ("Page reader") and
 * bench/reader.ts for how the budget and the per-element cost were measured.
 */

import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { plainText } from "../../../lib/plain-text";
import { extractHtml } from "./html";
import { namesBoilerplate } from "./html-elements";
import { readsAsProse, repeatedRuns } from "./html-prose";
import { cleanAuthor, isoDate, type PageMetadata, pageMetadata } from "./metadata";
import { DOM_LIMITS, type DomLimits, domCostEstimate, markupCounts } from "./dom-budget";

export interface ExtractedPage extends PageMetadata {
  title: string;
  /** Paragraphs separated by blank lines; a table's rows one a line, cells separated by " | ". */
  text: string;
}

/** Readability's text shorter than this (characters of prose) is "too little": the guard's is taken when it has more. */
const ENOUGH_CHARS = 250;

export type ExtractPath = "readability" | "guard:budget" | "guard:too-little" | "guard:failed";

/** extractPage with the path it took (the bench and tests look at it); the bench measures the DOM past the limits with larger ones. */
export function extractPageWithPath(html: string, url: string, limits: DomLimits = DOM_LIMITS): { page: ExtractedPage; path: ExtractPath } {
  const metadata = pageMetadata(html);
  const guarded = (path: ExtractPath) => {
    const page = extractHtml(html);
    return { page: { ...metadata, title: page.title, text: page.text }, path };
  };
  const counts = markupCounts(html);
  if (counts.elements > limits.elements || domCostEstimate(html, counts) > limits.bytes) return guarded("guard:budget");

  let article: ReadabilityResult | null;
  let title: string;
  try {
    ({ article, title } = readability(html, url));
  } catch {
    return guarded("guard:failed");
  }
  const text = article?.text ?? "";
  if (proseLength(text) < ENOUGH_CHARS) {
    const guard = guarded("guard:too-little");
    // The guard's on a tie: on so short a page, Readability keeps what it cannot tell from the text (a menu).
    if (guard.page.text && proseLength(guard.page.text) >= proseLength(text)) return guard;
  }
  const page: ExtractedPage = { ...metadata, title, text };
  if (!page.published_at && article?.publishedTime) page.published_at = isoDate(article.publishedTime);
  if (!page.author && article?.byline) page.author = cleanAuthor(article.byline);
  if (!page.site_name && article?.siteName) page.site_name = plainText(article.siteName) || undefined;
  if (!page.lang && article?.lang) page.lang = article.lang;
  for (const key of ["published_at", "author", "site_name", "lang"] as const) if (page[key] === undefined) delete page[key];
  return { page, path: "readability" };
}

/** The page's title, main text, and its published date, author, site name and language where it states them. */
export function extractPage(html: string, url: string): ExtractedPage {
  return extractPageWithPath(html, url).page;
}

interface ReadabilityResult {
  text: string;
  byline?: string | null;
  siteName?: string | null;
  publishedTime?: string | null;
  lang?: string | null;
}

function readability(html: string, url: string): { article: ReadabilityResult | null; title: string } {
  const { document } = parseHTML(html);
  // The page's own <title> (as the guard reads it), taken before Readability rewrites the document.
  const title = plainText(document.querySelector("title")?.textContent ?? "") || plainText(ogTitle(document) ?? "");
  if (!document.documentElement) return { article: null, title };
  setDocumentUrl(document, url);
  dropBoilerplate(document as unknown as DomDocument);
  const parsed = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], { serializer: (element) => element }).parse();
  if (!parsed) return { article: null, title: title || plainText(document.title ?? "") };
  return {
    title: title || plainText(parsed.title ?? ""),
    article: {
      text: withoutCopies(textOf(parsed.content as unknown as DomNode)),
      byline: parsed.byline,
      siteName: parsed.siteName,
      publishedTime: parsed.publishedTime,
      lang: parsed.lang,
    },
  };
}

function ogTitle(document: { querySelector(selector: string): { getAttribute(name: string): string | null } | null }): string | null {
  return document.querySelector('meta[property="og:title"]')?.getAttribute("content") ?? null;
}

/** Readability resolves links against the document's URL; linkedom's is about:blank. */
function setDocumentUrl(document: object, url: string): void {
  try {
    for (const key of ["documentURI", "baseURI", "URL"]) Object.defineProperty(document, key, { value: url, configurable: true });
  } catch {
    /* a read-only property: links stay relative, which the text does not show */
  }
}

/** Elements looked at by dropBoilerplate at most (each costs its text's length). */
const MAX_BOILERPLATE_CHECKS = 300;

interface DomElement {
  tagName: string;
  textContent: string | null;
  parentElement: DomElement | null;
  getAttribute(name: string): string | null;
  remove(): void;
}
interface DomDocument {
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}

/**
 * Before Readability: elements whose class, id or label names a banner, an ad slot, a share bar,
 * a newsletter box, teasers or comments (the guard's words, ./html.ts) are removed unless they
 * hold at least half the text of their parent. Readability's own list misses `ad-slot` and
 * `newsletter`, and it joins such siblings to the article when they hold a long sentence.
 */
function dropBoilerplate(document: DomDocument): void {
  const candidates = document.querySelectorAll("[class], [id], [aria-label]");
  let checked = 0;
  for (let i = 0; i < candidates.length && checked < MAX_BOILERPLATE_CHECKS; i++) {
    const element = candidates[i]!;
    const tag = element.tagName.toLowerCase();
    if (tag === "html" || tag === "body" || tag === "main" || tag === "article") continue;
    if (!namesBoilerplate(element.getAttribute("class") ?? "", element.getAttribute("id") ?? "", element.getAttribute("aria-label") ?? "")) continue;
    checked++;
    const parent = element.parentElement;
    if (!parent) continue;
    const own = (element.textContent ?? "").trim().length;
    const enclosing = (parent.textContent ?? "").trim().length;
    if (own * 2 < enclosing || own === 0) element.remove();
  }
}

/** The text without blocks carried again (see repeatedRuns). */
function withoutCopies(text: string): string {
  const paragraphs = text.split("\n\n");
  const dropped = repeatedRuns(paragraphs);
  return paragraphs.filter((_, index) => !dropped[index]).join("\n\n");
}

/** Characters of the lines that read as prose. */
function proseLength(text: string): number {
  let chars = 0;
  for (const line of text.split("\n")) if (line.includes(" | ") || readsAsProse(line)) chars += line.length;
  return chars;
}

// ---------------------------------------------------------------------------------------------
// Readability's article element as text.

const BLOCK_TAGS = new Set([
  "P",
  "DIV",
  "SECTION",
  "ARTICLE",
  "MAIN",
  "UL",
  "OL",
  "LI",
  "DL",
  "DT",
  "DD",
  "H1",
  "H2",
  "H3",
  "H4",
  "H5",
  "H6",
  "BLOCKQUOTE",
  "PRE",
  "TABLE",
  "FIGURE",
  "FIGCAPTION",
  "HR",
  "ADDRESS",
  "DETAILS",
  "SUMMARY",
  "HEADER",
  "FOOTER",
  "ASIDE",
  "NAV",
  "FORM",
  "FIELDSET",
  "CAPTION",
]);
const SKIPPED_TAGS = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "SVG", "MATH", "BUTTON", "SELECT", "TEXTAREA", "IFRAME", "OBJECT", "EMBED", "CANVAS"]);
const PARAGRAPH = "\u0006";

/** What the walk reads of a linkedom node. */
interface DomNode {
  nodeType: number;
  nodeValue: string | null;
  tagName?: string;
  previousElementSibling?: DomNode | null;
  childNodes: ArrayLike<DomNode>;
}

/**
 * An element's text with its layout kept: blocks as paragraphs (blank lines between), <br> and a
 * table's rows as lines, a row's cells separated by " | ". Walked with a stack, not recursion.
 */
export function textOf(root: DomNode): string {
  const out: string[] = [];
  type Step = { node: DomNode; pre: boolean; after?: string };
  const steps: Step[] = [{ node: root, pre: false }];
  while (steps.length > 0) {
    const step = steps.pop()!;
    if (step.after !== undefined) {
      out.push(step.after);
      continue;
    }
    const node = step.node;
    if (node.nodeType === 3) {
      out.push(step.pre ? (node.nodeValue ?? "") : (node.nodeValue ?? "").replace(/\s+/g, " "));
      continue;
    }
    if (node.nodeType !== 1) continue;
    const element = node;
    const tag = (element.tagName ?? "").toUpperCase();
    if (SKIPPED_TAGS.has(tag)) continue;
    let before = "";
    let after = "";
    if (tag === "BR") before = "\n";
    else if (tag === "TR") before = after = "\n";
    else if (tag === "TD" || tag === "TH") before = element.previousElementSibling ? " | " : "";
    else if (BLOCK_TAGS.has(tag)) before = after = PARAGRAPH;
    out.push(before);
    steps.push({ node, pre: step.pre, after });
    const pre = step.pre || tag === "PRE";
    const children = element.childNodes;
    for (let i = children.length - 1; i >= 0; i--) steps.push({ node: children[i]!, pre });
  }
  return out
    .join("")
    .split(PARAGRAPH)
    .map((paragraph) =>
      paragraph
        .split("\n")
        .map((line) => line.replace(/[^\S\n]+/g, " ").trim())
        .filter(Boolean)
        .join("\n"),
    )
    .filter(Boolean)
    .join("\n\n");
}

/**
 * Main text of an HTML page: the title, and the text of the page minus boilerplate (script,
 * style, nav, header, footer, aside, forms, cookie and consent banners, hidden elements). Block
 * elements become line breaks so sentences from different paragraphs do not run together.
 */

import { decodeEntities, plainText } from "../../../lib/plain-text";

const DROPPED = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "canvas",
  "iframe",
  "nav",
  "header",
  "footer",
  "aside",
  "form",
  "button",
  "select",
  "textarea",
  "dialog",
  "menu",
  "figcaption",
]);
const BLOCKS = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "li",
  "br",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "tr",
  "td",
  "th",
  "blockquote",
  "pre",
  "dd",
  "dt",
]);
const DROPPED_ROLES = new Set(["navigation", "banner", "contentinfo", "complementary", "dialog", "alert", "alertdialog", "menu"]);
/** Containers that hold the content even when their class names say "header" or "post". */
const CONTENT_TAGS = new Set(["html", "head", "body", "main", "article"]);
/** class/id/role/aria-label words of banners and chrome that plain tags do not reveal. */
const BOILERPLATE =
  /\b(cookie|cookies|consent|gdpr|banner|newsletter|subscribe|popup|modal|advert|ads?|sponsor|share|social|breadcrumbs?|sidebar|menu|navbar|nav|footer|header|related|comments?|skip-link|sr-only|visually-hidden)\b/i;

const VOID_TAGS = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
/** Elements whose content is text up to their end tag, never markup. */
const RAW_TEXT = new Set(["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "plaintext"]);

/**
 * Open elements kept at most. Deeper ones are read as part of the deepest kept one (flattened):
 * their text stays, a deep element is not dropped as boilerplate, and an end tag is looked for
 * among these only, so 100,000 nested <div>s followed by 100,000 unmatched end tags take
 * milliseconds instead of minutes (each end tag used to search the whole stack).
 */
const MAX_OPEN_ELEMENTS = 256;

type Attributes = Map<string, string>;

function isBoilerplate(tag: string, attributes: Attributes): boolean {
  if (CONTENT_TAGS.has(tag)) return false;
  if (attributes.has("hidden") || attributes.get("aria-hidden") === "true") return true;
  if (DROPPED_ROLES.has(attributes.get("role") ?? "")) return true;
  const marker = `${attributes.get("class") ?? ""} ${attributes.get("id") ?? ""} ${attributes.get("aria-label") ?? ""}`;
  return BOILERPLATE.test(marker) && !/\b(content|article|post-body|main)\b/i.test(marker);
}

const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

/** The ">" that ends the tag opened at `from`, skipping quoted attribute values ("a > b"); -1 if none. */
function tagEnd(source: string, from: number): number {
  let quote = "";
  for (let i = from; i < source.length; i++) {
    const char = source[i];
    if (quote) {
      if (char === quote) quote = "";
    } else if (char === '"' || char === "'") quote = char;
    else if (char === ">") return i;
  }
  return -1;
}

function parseAttributes(source: string): Attributes {
  const attributes: Attributes = new Map();
  for (const match of source.matchAll(ATTRIBUTE)) {
    const name = match[1]!.toLowerCase();
    if (!attributes.has(name)) attributes.set(name, match[2] ?? match[3] ?? match[4] ?? "");
  }
  return attributes;
}

export interface ExtractedPage {
  title: string;
  text: string;
}

interface OpenElement {
  tag: string;
  drop: boolean;
  block: boolean;
}

/**
 * One pass over the markup in plain JavaScript (HTMLRewriter called back into JS for every element
 * and text chunk: ~0.1 ms an element, 100-300 ms for a real article page, all of it on the queue
 * consumer's one thread). Elements are kept on a stack, so an end tag also closes what was left
 * open inside it, and a page without a <body> tag is read as all body.
 */
export async function extractHtml(html: string | Response): Promise<ExtractedPage> {
  const source = typeof html === "string" ? html : await html.text();
  const lower = source.toLowerCase();
  const hasBody = /<body[\s>/]/.test(lower);
  let title = "";
  let ogTitle = "";
  let inBody = !hasBody;
  /** Depth of dropped elements we are inside; text is kept only at depth 0. */
  let dropped = 0;
  const stack: OpenElement[] = [];
  const parts: string[] = [];

  const text = (chunk: string) => {
    if (inBody && dropped === 0 && chunk) parts.push(chunk);
  };
  const close = (element: OpenElement) => {
    if (element.drop) dropped--;
    if (element.block) parts.push("\n");
    if (element.tag === "body") inBody = false;
  };

  let at = 0;
  while (at < source.length) {
    const open = source.indexOf("<", at);
    if (open < 0) {
      text(source.slice(at));
      break;
    }
    if (open > at) text(source.slice(at, open));
    const next = source[open + 1] ?? "";
    if (source.startsWith("<!--", open)) {
      const end = source.indexOf("-->", open + 4);
      at = end < 0 ? source.length : end + 3;
      continue;
    }
    if (next === "!" || next === "?") {
      const end = source.indexOf(">", open);
      at = end < 0 ? source.length : end + 1;
      continue;
    }
    const isEnd = next === "/";
    const nameMatch = /^[a-zA-Z][a-zA-Z0-9:-]*/.exec(source.slice(open + (isEnd ? 2 : 1), open + (isEnd ? 2 : 1) + 64));
    if (!nameMatch) {
      text("<"); // a lone "<" is text
      at = open + 1;
      continue;
    }
    const tag = nameMatch[0].toLowerCase();
    const end = isEnd ? source.indexOf(">", open) : tagEnd(source, open + 1 + tag.length);
    if (end < 0) break;
    at = end + 1;
    if (isEnd) {
      const index = stack.findLastIndex((element) => element.tag === tag);
      if (index >= 0) for (const element of stack.splice(index).reverse()) close(element);
      continue;
    }
    const attributeSource = source.slice(open + 1 + tag.length, end);
    const attributes = parseAttributes(attributeSource);
    if (tag === "meta" && attributes.get("property") === "og:title") ogTitle = attributes.get("content") ?? "";
    if (tag === "body") inBody = true;
    if (RAW_TEXT.has(tag)) {
      // Its content runs to its end tag; only a title's is kept (scripts, styles and the rest are dropped).
      const closeAt = lower.indexOf(`</${tag}`, at);
      const content = source.slice(at, closeAt < 0 ? source.length : closeAt);
      if (tag === "title")
        title ||= content; // the page's, not an <svg>'s further down
      else if (tag === "textarea" || tag === "xmp" || tag === "plaintext") {
        if (!DROPPED.has(tag)) text(content);
      }
      const closeEnd = closeAt < 0 ? -1 : source.indexOf(">", closeAt);
      at = closeEnd < 0 ? source.length : closeEnd + 1;
      continue;
    }
    const drop = DROPPED.has(tag) || isBoilerplate(tag, attributes);
    const block = BLOCKS.has(tag);
    if (block) parts.push("\n");
    // Void elements (and <x/>) have no content and no end tag.
    if (VOID_TAGS.has(tag) || attributeSource.trimEnd().endsWith("/")) continue;
    if (stack.length >= MAX_OPEN_ELEMENTS) continue;
    if (drop) dropped++;
    stack.push({ tag, drop, block });
  }

  const body = decodeEntities(parts.join(""))
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    // A line that does not end like prose and has few words is a label, a button or a link list.
    .filter((line) => line.length > 0 && (line.split(" ").length >= 6 || /[.!?:]$/.test(line)))
    .join("\n");
  const cleanTitle = plainText(title || ogTitle);
  return { title: cleanTitle, text: body };
}

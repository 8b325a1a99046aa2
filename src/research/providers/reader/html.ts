/**
 * The guard extractor (issue 42): main text of an HTML page in one pass over the markup, no DOM,
 * for the pages `extractPage` (./extract.ts) does not give to Readability (too many elements for
 * the DOM's memory budget) and those where Readability finds too little.
 *
 * Dropped outright: script, style, nav, footer, aside, buttons, hidden elements and ARIA chrome.
 * Dropped unless they hold the article ("soft"): a <form> or <header>, and elements whose class,
 * id or label says cookie banner, ad, share bar, related stories and the like. A soft-dropped
 * element is kept when it holds at least half the prose of what encloses it: an ASP.NET page
 * wraps the whole page in a <form>, and `div.Page-ad-margins` or `div.header-style-header-2`
 * may wrap the article itself. Then, line by line: lines that are mostly link text (menus,
 * teaser lists) are dropped, a line met before is dropped (an article carried three times in the
 * markup is kept once), table rows are kept as cells separated by " | ", and a line must read as
 * prose: 6+ words, or ending in a stop (. ! ? : 。 ！ ？ ؟ ।), or 12+ characters of a script
 * written without spaces (Chinese, Japanese, Thai, ...).
 */

import { plainText } from "../../../lib/plain-text";
import { type Attributes, BLOCKS, dropKind, RAW_TEXT, VOID_TAGS } from "./html-elements";
import { CELL, CODE, keptText, LINK_CLOSE, LINK_OPEN, proseOf, SOFT_CLOSE, SOFT_OPEN } from "./html-prose";

/**
 * Open elements kept at most. Deeper ones are read as part of the deepest kept one (flattened):
 * their text stays, a deep element is not dropped as boilerplate, and an end tag is looked for
 * among these only, so 100,000 nested <div>s followed by 100,000 unmatched end tags take
 * milliseconds instead of minutes (each end tag used to search the whole stack).
 */
const MAX_OPEN_ELEMENTS = 256;

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

const NO_ATTRIBUTES: Attributes = new Map();

export function parseAttributes(source: string): Attributes {
  const attributes: Attributes = new Map();
  for (const match of source.matchAll(ATTRIBUTE)) {
    const name = match[1]!.toLowerCase();
    if (!attributes.has(name)) attributes.set(name, match[2] ?? match[3] ?? match[4] ?? "");
  }
  return attributes;
}

export interface GuardedPage {
  title: string;
  text: string;
}

interface OpenElement {
  tag: string;
  drop: "hard" | "soft" | null;
  block: boolean;
}

/**
 * One pass over the markup in plain JavaScript (HTMLRewriter called back into JS for every element
 * and text chunk: ~0.1 ms an element, 100-300 ms for a real article page, all of it on the queue
 * consumer's one thread). Elements are kept on a stack, so an end tag also closes what was left
 * open inside it, and a page without a <body> tag is read as all body.
 */
export function extractHtml(source: string): GuardedPage {
  const lower = source.toLowerCase();
  const hasBody = /<body[\s>/]/.test(lower);
  let title = "";
  let ogTitle = "";
  let inBody = !hasBody;
  /** Depth of hard-dropped elements we are inside; text is kept only at depth 0. */
  let dropped = 0;
  const stack: OpenElement[] = [];
  const parts: string[] = [];

  /** Depth of <pre> elements we are inside: their line breaks are kept; elsewhere a line break in the markup is a space. */
  let preformatted = 0;
  const text = (chunk: string) => {
    if (inBody && dropped === 0 && chunk) parts.push(preformatted > 0 ? chunk.replace(/\r?\n/g, `\n${CODE}`) : chunk.replace(/\s+/g, " "));
  };
  const mark = (chunk: string) => {
    if (dropped === 0) parts.push(chunk);
  };
  const close = (element: OpenElement) => {
    if (element.drop === "hard") dropped--;
    if (element.drop === "soft") mark(SOFT_CLOSE);
    if (element.tag === "a") mark(LINK_CLOSE);
    if (element.tag === "pre") preformatted--;
    if (element.block) mark("\n");
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
    const attributes = attributeSource.trim() ? parseAttributes(attributeSource) : NO_ATTRIBUTES;
    if (tag === "meta" && attributes.get("property") === "og:title") ogTitle = attributes.get("content") ?? "";
    if (tag === "body") inBody = true;
    if (RAW_TEXT.has(tag)) {
      // Its content runs to its end tag; only a title's is kept (scripts, styles and the rest are dropped).
      const closeAt = lower.indexOf(`</${tag}`, at);
      const content = source.slice(at, closeAt < 0 ? source.length : closeAt);
      if (tag === "title")
        title ||= content; // the page's, not an <svg>'s further down
      else if (tag === "xmp" || tag === "plaintext") text(content);
      const closeEnd = closeAt < 0 ? -1 : source.indexOf(">", closeAt);
      at = closeEnd < 0 ? source.length : closeEnd + 1;
      continue;
    }
    const drop = dropKind(tag, attributes);
    const block = BLOCKS.has(tag);
    if (block) mark("\n");
    if (tag === "td" || tag === "th") mark(CELL);
    // Void elements (and <x/>) have no content and no end tag.
    if (VOID_TAGS.has(tag) || attributeSource.trimEnd().endsWith("/")) continue;
    if (stack.length >= MAX_OPEN_ELEMENTS) continue;
    if (drop === "hard") dropped++;
    if (drop === "soft") mark(SOFT_OPEN);
    if (tag === "a") mark(LINK_OPEN);
    if (tag === "pre") {
      preformatted++;
      mark(CODE);
    }
    stack.push({ tag, drop, block });
  }
  for (const element of stack.splice(0).reverse()) close(element);

  return { title: plainText(title || ogTitle), text: proseOf(keptText(parts.join(""))) };
}

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

import { decodeEntities } from "../../../lib/html-entities";
import { plainText } from "../../../lib/plain-text";

/** Elements dropped with their content, whatever they hold. */
const DROPPED = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "canvas",
  "iframe",
  "nav",
  "footer",
  "aside",
  "button",
  "select",
  "textarea",
  "dialog",
  "menu",
  "figcaption",
]);
/** Elements dropped unless they hold the article (see the file's comment). */
const SOFT_DROPPED = new Set(["form", "header"]);
const BLOCKS = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "li",
  "ul",
  "ol",
  "br",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "tr",
  "table",
  "blockquote",
  "pre",
  "dd",
  "dt",
  "dl",
  "figure",
  "hr",
  "form",
  "header",
]);
const DROPPED_ROLES = new Set(["navigation", "banner", "contentinfo", "complementary", "dialog", "alert", "alertdialog", "menu"]);
/** Containers that hold the content even when their class names say "header" or "post". */
const CONTENT_TAGS = new Set(["html", "head", "body", "main", "article"]);
/**
 * Words of a class, id or label that say banner or chrome, matched against the parts of a
 * hyphenated or underscored name ("site-header", "share_bar", "cookieConsent" is one part).
 */
const BOILERPLATE_WORDS = new Set(
  (
    "cookie cookies consent gdpr banner newsletter subscribe popup modal advert advertisement ads sponsor sponsored " +
    "share social breadcrumb breadcrumbs sidebar menu navbar nav footer header masthead related comment comments " +
    "teaser teasers promo promos recommended recommendations trending popular outbrain taboola skip sr-only visually-hidden"
  ).split(" "),
);
/** "ad" alone is a boilerplate word only as a whole name or its first or last part (`ad-slot`, `top-ad`), never inside (`Page-ad-margins`, `non-ad-column-l`). */
const AD_NAME = /^ad(?:[-_]|$)|[-_]ad$/;
const CONTENT_WORDS = /(?:^|[\s_-])(content|article|post-body|story-body|main|entry-content)(?:$|[\s_-])/i;

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

/** Marks in the collected text (control characters no page text keeps): link text, a table cell, a soft-dropped element. */
const LINK_OPEN = "\u0001";
const LINK_CLOSE = "\u0002";
const CELL = "\u0003";
const SOFT_OPEN = "\u0004";
const SOFT_CLOSE = "\u0005";
/** A line of a <pre> block: kept as it is, whatever its words. */
const CODE = "\u0006";
// biome-ignore lint/suspicious/noControlCharactersInRegex: the link marks are control characters on purpose (no page text keeps them)
const LINK_MARK = /[\u0001\u0002]/g;

export type Attributes = Map<string, string>;

function classParts(marker: string): string[] {
  return marker.toLowerCase().split(/\s+/).filter(Boolean);
}

/**
 * Does a class, id or label name banner or chrome (see BOILERPLATE_WORDS)? A long name (4+ parts)
 * counts by its first or last part only, and a long id or label not at all: ids made from a
 * heading ("sharing-with-multiple-developers") and labels that are sentences say nothing.
 */
export function namesBoilerplate(className: string, id: string, label: string): boolean {
  if (!className && !id && !label) return false;
  if (CONTENT_WORDS.test(`${className} ${id} ${label}`)) return false;
  const names = classParts(className);
  for (const name of [id.trim().toLowerCase(), label.trim().toLowerCase().replace(/\s+/g, "-")]) {
    if (name && name.split(/[-_]/).length <= 3) names.push(name);
  }
  for (const name of names) {
    if (BOILERPLATE_WORDS.has(name) || AD_NAME.test(name)) return true;
    const parts = name.split(/[-_]/).filter(Boolean);
    if (parts.length < 2) continue;
    const looked = parts.length <= 3 ? parts : [parts[0]!, parts[parts.length - 1]!];
    if (looked.some((part) => part !== "ad" && BOILERPLATE_WORDS.has(part))) return true;
  }
  return false;
}

/** "hard": dropped with its content; "soft": dropped unless it holds the article; null: kept. */
function dropKind(tag: string, attributes: Attributes): "hard" | "soft" | null {
  if (DROPPED.has(tag)) return "hard";
  if (CONTENT_TAGS.has(tag)) return null;
  if (attributes.has("hidden") || attributes.get("aria-hidden") === "true") return "hard";
  if (DROPPED_ROLES.has(attributes.get("role") ?? "")) return "hard";
  if (SOFT_DROPPED.has(tag)) return "soft";
  return namesBoilerplate(attributes.get("class") ?? "", attributes.get("id") ?? "", attributes.get("aria-label") ?? "") ? "soft" : null;
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

// ---------------------------------------------------------------------------------------------
// Soft-dropped elements: kept when they hold at least half the prose of what encloses them.

interface Segment {
  /** Text and nested segments, in order. */
  pieces: (string | Segment)[];
  prose: number;
}

/** The collected text as a tree of soft-dropped segments, each kept or dropped by its share of its parent's prose. */
function keptText(collected: string): string {
  const root: Segment = { pieces: [], prose: 0 };
  const open: Segment[] = [root];
  let from = 0;
  for (let i = 0; i <= collected.length; i++) {
    const char = collected[i];
    if (i < collected.length && char !== SOFT_OPEN && char !== SOFT_CLOSE) continue;
    const current = open[open.length - 1]!;
    if (i > from) current.pieces.push(collected.slice(from, i));
    from = i + 1;
    if (char === SOFT_OPEN) {
      const segment: Segment = { pieces: [], prose: 0 };
      current.pieces.push(segment);
      open.push(segment);
    } else if (char === SOFT_CLOSE && open.length > 1) open.pop();
  }
  if (open.length === 1 && root.pieces.every((piece) => typeof piece === "string")) return collected; // nothing soft-dropped
  measure(root);
  const out: string[] = [];
  const emit = (segment: Segment) => {
    for (const piece of segment.pieces) {
      if (typeof piece === "string") out.push(piece);
      else if (piece.prose > 0 && piece.prose * 2 >= segment.prose) emit(piece);
      else out.push("\n");
    }
  };
  emit(root);
  return out.join("");
}

function measure(segment: Segment): number {
  let prose = 0;
  for (const piece of segment.pieces) prose += typeof piece === "string" ? proseChars(piece) : measure(piece);
  segment.prose = prose;
  return prose;
}

/** Characters of prose in a stretch of collected text: lines that read as prose and are not mostly links. */
function proseChars(stretch: string): number {
  let chars = 0;
  for (const line of readLines(stretch)) if (line.kind === "prose") chars += line.text.length;
  return chars;
}

// ---------------------------------------------------------------------------------------------
// Lines.

/** Scripts written without spaces between words: their characters are counted instead of words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}]/gu;
/** A line ending like a sentence, in the scripts we read (Latin and others, CJK full stops, Arabic and Urdu, Devanagari). */
const SENTENCE_END = /[.!?:。！？．؟۔।॥][\s"'”’»)\]」』）]*$/u;

interface Line {
  text: string;
  /** A row is a table's or a <pre> block's line: kept whatever its words, lines of one block together. */
  kind: "prose" | "row" | "other";
}

/** Does a line read as prose: 6+ words, a sentence's end, or 12+ characters of a script without spaces. */
export function readsAsProse(line: string): boolean {
  if (SENTENCE_END.test(line)) return true;
  if (line.split(" ").length >= 6) return true;
  return (line.match(UNSPACED)?.length ?? 0) >= 12;
}

/** The collected text's lines, with link marks measured and removed, cells joined with " | ". */
function readLines(collected: string): Line[] {
  const lines: Line[] = [];
  let inLink = false;
  for (const raw of decodeEntities(collected).split("\n")) {
    let linkChars = 0;
    let plain = "";
    if (!inLink && raw.indexOf(LINK_OPEN) < 0)
      plain = raw; // no link on this line
    // Stretches between link marks, each inside or outside a link.
    else
      for (let from = 0; ; ) {
        LINK_MARK.lastIndex = from;
        const found = LINK_MARK.exec(raw);
        const to = found ? found.index : raw.length;
        const stretch = raw.slice(from, to);
        plain += stretch;
        if (inLink) linkChars += stretch.replace(/\s+/g, "").length;
        if (!found) break;
        inLink = found[0] === LINK_OPEN;
        from = to + 1;
      }
    if (plain.includes(CODE)) {
      const code = plain.replaceAll(CODE, "").trimEnd();
      if (code.trim()) lines.push({ text: code.replace(/^\s*\n/, ""), kind: linkChars * 2 > code.replace(/\s/g, "").length ? "other" : "row" });
      continue;
    }
    const cells = plain.indexOf(CELL) < 0 ? [squash(plain)].filter(Boolean) : plain.split(CELL).map(squash).filter(Boolean);
    const text = cells.length === 1 ? cells[0]! : cells.join(" | ");
    if (!text) continue;
    const mostlyLinks = linkChars > 0 && linkChars * 2 > text.replace(/[\s|]/g, "").length;
    if (mostlyLinks) lines.push({ text, kind: "other" });
    else if (cells.length >= 2 && plain.trimStart().startsWith(CELL)) lines.push({ text, kind: "row" });
    else lines.push({ text, kind: readsAsProse(text) ? "prose" : "other" });
  }
  return lines;
}

const squash = (text: string) => (/\s\s|[^\S ]/.test(text) ? text.replace(/\s+/g, " ") : text).trim();

/**
 * The kept lines as paragraphs separated by blank lines (a table's rows one a line). A run of
 * lines met before that holds 3+ different ones is a copy of a block already kept (the article
 * carried again for another layout) and is dropped; a paragraph or two repeated are kept.
 */
function proseOf(collected: string): string {
  const lines = readLines(collected).filter((line) => line.kind !== "other");
  const dropped = repeatedRuns(lines.map((line) => line.text));
  const out: string[] = [];
  let previous: Line["kind"] | null = null;
  lines.forEach((line, index) => {
    if (dropped[index]) return;
    if (out.length > 0) out.push(line.kind === "row" && previous === "row" ? "\n" : "\n\n");
    out.push(line.text);
    previous = line.kind;
  });
  return out.join("");
}

/** Which of these paragraphs are in a run met before holding 3+ different ones: a copy of a block already kept. */
export function repeatedRuns(paragraphs: string[]): boolean[] {
  const lines = paragraphs.map((text) => ({ text }));
  const seen = new Set<string>();
  const repeated = lines.map((line) => {
    const key = line.text.toLowerCase();
    const again = seen.has(key);
    seen.add(key);
    return again;
  });
  const dropped = new Array<boolean>(lines.length).fill(false);
  for (let start = 0; start < lines.length; ) {
    if (!repeated[start]) {
      start++;
      continue;
    }
    let end = start;
    while (end < lines.length && repeated[end]) end++;
    const distinct = new Set(lines.slice(start, end).map((line) => line.text.toLowerCase()));
    if (distinct.size >= 3) dropped.fill(true, start, end);
    start = end;
  }
  return dropped;
}

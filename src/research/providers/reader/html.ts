/**
 * Main text of an HTML page with HTMLRewriter (streaming, in the Workers runtime): the title,
 * and the text of the page minus boilerplate (script, style, nav, header, footer, aside,
 * forms, cookie and consent banners, hidden elements). Block elements become line breaks so
 * sentences from different paragraphs do not run together.
 */

import { decodeEntities } from "../../engine/text";

const DROPPED = new Set(["script", "style", "noscript", "template", "svg", "canvas", "iframe", "nav", "header", "footer", "aside", "form", "button", "select", "textarea", "dialog", "menu", "figcaption"]);
const BLOCKS = new Set(["p", "div", "section", "article", "main", "li", "br", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "td", "th", "blockquote", "pre", "dd", "dt"]);
const DROPPED_ROLES = new Set(["navigation", "banner", "contentinfo", "complementary", "dialog", "alert", "alertdialog", "menu"]);
/** Containers that hold the content even when their class names say "header" or "post". */
const CONTENT_TAGS = new Set(["html", "head", "body", "main", "article"]);
/** class/id/role/aria-label words of banners and chrome that plain tags do not reveal. */
const BOILERPLATE = /\b(cookie|cookies|consent|gdpr|banner|newsletter|subscribe|popup|modal|advert|ads?|sponsor|share|social|breadcrumbs?|sidebar|menu|navbar|nav|footer|header|related|comments?|skip-link|sr-only|visually-hidden)\b/i;

const VOID_TAGS = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);

/** Registers an end-tag handler; false for void elements (and self-closed ones), which have no end tag. */
function onEnd(element: Element, handler: () => void): boolean {
  if (VOID_TAGS.has(element.tagName)) return false;
  try {
    element.onEndTag(handler);
    return true;
  } catch {
    return false;
  }
}

function isBoilerplate(element: Element): boolean {
  if (CONTENT_TAGS.has(element.tagName)) return false;
  if (element.hasAttribute("hidden") || element.getAttribute("aria-hidden") === "true") return true;
  if (DROPPED_ROLES.has(element.getAttribute("role") ?? "")) return true;
  const marker = `${element.getAttribute("class") ?? ""} ${element.getAttribute("id") ?? ""} ${element.getAttribute("aria-label") ?? ""}`;
  return BOILERPLATE.test(marker) && !/\b(content|article|post-body|main)\b/i.test(marker);
}

export interface ExtractedPage {
  title: string;
  text: string;
}

export async function extractHtml(html: string | Response): Promise<ExtractedPage> {
  let title = "";
  let ogTitle = "";
  let inTitle = 0;
  /** Depth of dropped elements we are inside; text is kept only at depth 0. */
  let dropped = 0;
  const parts: string[] = [];
  // One element handler for everything: HTMLRewriter keeps a single end-tag handler per
  // element, so separate handlers (drop, block, title) would overwrite each other's.
  const rewriter = new HTMLRewriter()
    .on("*", {
      element(element) {
        const tag = element.tagName;
        if (tag === "meta" && element.getAttribute("property") === "og:title") ogTitle = element.getAttribute("content") ?? "";
        const isTitle = tag === "title";
        const drop = DROPPED.has(tag) || isBoilerplate(element);
        const block = BLOCKS.has(tag);
        if (!isTitle && !drop && !block) return;
        if (isTitle) inTitle++;
        if (drop) dropped++;
        if (block) parts.push("\n");
        const ended = onEnd(element, () => {
          if (isTitle) inTitle--;
          if (drop) dropped--;
          if (block) parts.push("\n");
        });
        if (!ended) {
          if (isTitle) inTitle--;
          if (drop) dropped--;
        }
      },
      text(chunk) {
        if (inTitle > 0) title += chunk.text;
      },
    })
    .on("body", {
      text(chunk) {
        if (dropped === 0 && inTitle === 0) parts.push(chunk.text);
      },
    });
  const response = typeof html === "string" ? new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } }) : html;
  await rewriter.transform(response).arrayBuffer();
  const text = decodeEntities(parts.join(""))
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    // A line that does not end like prose and has few words is a label, a button or a link list.
    .filter((line) => line.length > 0 && (line.split(" ").length >= 6 || /[.!?:]$/.test(line)))
    .join("\n");
  const cleanTitle = decodeEntities((title || ogTitle).replace(/\s+/g, " ").trim());
  return { title: cleanTitle, text };
}

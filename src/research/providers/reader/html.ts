/**
 * Main text of an HTML page with HTMLRewriter (streaming, in the Workers runtime): the title,
 * and the text of the page minus boilerplate (script, style, nav, header, footer, aside,
 * forms, cookie and consent banners, hidden elements). Block elements become line breaks so
 * sentences from different paragraphs do not run together.
 */

const DROPPED_TAGS = ["script", "style", "noscript", "template", "svg", "canvas", "iframe", "nav", "header", "footer", "aside", "form", "button", "select", "textarea", "dialog", "menu", "figure figcaption"];
const BLOCK_TAGS = ["p", "div", "section", "article", "main", "li", "br", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "td", "th", "blockquote", "pre", "dd", "dt"];
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

export interface ExtractedPage {
  title: string;
  text: string;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, code) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code) => String.fromCodePoint(Number.parseInt(code, 16)));
}

export async function extractHtml(html: string | Response): Promise<ExtractedPage> {
  let title = "";
  let ogTitle = "";
  let inTitle = 0;
  /** Depth of dropped elements we are inside; text is kept only at depth 0. */
  let dropped = 0;
  const parts: string[] = [];
  const drop = {
    element(element: Element) {
      dropped++;
      if (!onEnd(element, () => dropped--)) dropped--;
    },
  };
  let rewriter = new HTMLRewriter()
    .on("title", {
      element(element) {
        inTitle++;
        if (!onEnd(element, () => inTitle--)) inTitle--;
      },
      text(chunk) {
        title += chunk.text;
      },
    })
    .on('meta[property="og:title"]', {
      element(element) {
        ogTitle = element.getAttribute("content") ?? "";
      },
    });
  for (const tag of DROPPED_TAGS) rewriter = rewriter.on(tag, drop);
  rewriter = rewriter.on("[hidden], [aria-hidden=true], [role=navigation], [role=banner], [role=contentinfo], [role=complementary], [role=dialog], [role=alert]", drop);
  rewriter = rewriter.on("*", {
    element(element) {
      if (element.tagName === "html" || element.tagName === "body" || element.tagName === "main" || element.tagName === "article") return;
      const marker = `${element.getAttribute("class") ?? ""} ${element.getAttribute("id") ?? ""} ${element.getAttribute("aria-label") ?? ""}`;
      if (BOILERPLATE.test(marker) && !/\b(content|article|post-body|main)\b/i.test(marker)) {
        dropped++;
        if (!onEnd(element, () => dropped--)) dropped--;
      }
    },
  });
  for (const tag of BLOCK_TAGS) {
    rewriter = rewriter.on(tag, {
      element(element) {
        parts.push("\n");
        onEnd(element, () => parts.push("\n"));
      },
    });
  }
  rewriter = rewriter.on("body", {
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

/**
 * How the guard extractor (html.ts) treats each element: dropped with its content, dropped
 * unless it holds the article ("soft": a form, a header, a class or id that names boilerplate),
 * a block that ends a line, void, or raw text. See html.ts for why.
 */

/** Elements dropped with their content, whatever they hold. */
export const DROPPED = new Set([
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
export const BLOCKS = new Set([
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
export const CONTENT_TAGS = new Set(["html", "head", "body", "main", "article"]);
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

export const VOID_TAGS = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
/** Elements whose content is text up to their end tag, never markup. */
export const RAW_TEXT = new Set(["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "plaintext"]);

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
export function dropKind(tag: string, attributes: Attributes): "hard" | "soft" | null {
  if (DROPPED.has(tag)) return "hard";
  if (CONTENT_TAGS.has(tag)) return null;
  if (attributes.has("hidden") || attributes.get("aria-hidden") === "true") return "hard";
  if (DROPPED_ROLES.has(attributes.get("role") ?? "")) return "hard";
  if (SOFT_DROPPED.has(tag)) return "soft";
  return namesBoilerplate(attributes.get("class") ?? "", attributes.get("id") ?? "", attributes.get("aria-label") ?? "") ? "soft" : null;
}

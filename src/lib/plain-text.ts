/** Plain text out of strings that may carry markup: titles and summaries shown to callers (issue 26, defect 7). */

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  rsquo: "’",
  lsquo: "‘",
  rdquo: "”",
  ldquo: "“",
  hellip: "…",
};

/** Decodes HTML character references left in scraped titles and text ("Tunnels &amp; Trolls", "&#39;"). */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Elements whose content is code or styling, never text: removed with their content. */
const NOT_TEXT = /<(script|style|noscript|template|iframe|object|embed|svg|math|textarea|xmp)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
/** A tag, comment or declaration; and one left open at the end ("T<script"). */
const TAG = /<!--[\s\S]*?-->|<[a-zA-Z/!?][^>]*>|<[a-zA-Z/!?][^>]*$/g;

function stripMarkup(text: string): string {
  return text.replace(NOT_TEXT, " ").replace(TAG, " ");
}

/**
 * A title or summary as plain text: elements of code (script, style, ...) removed with their
 * content, other tags removed, the common entities decoded, whitespace collapsed. Markup written
 * as entities (`&lt;script&gt;`) is removed too: decoding must not bring a tag back.
 * `T<script>alert(1)</script>` → `T`; `Tunnels &amp; <b>Trolls</b>` → `Tunnels & Trolls`.
 */
export function plainText(text: string): string {
  if (!/[<&]/.test(text)) return text.replace(/\s+/g, " ").trim();
  return stripMarkup(decodeEntities(stripMarkup(text)))
    .replace(/\s+/g, " ")
    .trim();
}

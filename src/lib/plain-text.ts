/** Plain text out of strings that may carry markup: titles and summaries shown to callers (issue 26, defect 7). */

import { decodeEntities } from "./html-entities";

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

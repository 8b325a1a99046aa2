import { fold } from "../../language";

/**
 * Where a model's quote is in a source's full text: a verbatim span, compared after the
 * normalisation a copied quote honestly differs by (runs of whitespace, typographic quote marks
 * and dashes, accents, letter case). Anything else (a changed word, a dropped clause, a made-up
 * sentence) is not found. An ellipsis splits a quote into fragments, each a span of its own.
 */

/** A fragment shorter than this many words cannot show a claim ("Japan", "in 1898"): it is refused. */
export const MIN_QUOTE_WORDS = 3;

export interface QuoteSpan {
  start: number;
  end: number;
}

const QUOTE_MARKS: Record<string, string> = {
  "‘": "'",
  "’": "'",
  "‚": "'",
  "‛": "'",
  "′": "'",
  "`": "'",
  "“": '"',
  "”": '"',
  "„": '"',
  "‟": '"',
  "″": '"',
  "«": '"',
  "»": '"',
};
const DASHES = /[‐‑‒–—―−]/;

/** The text normalised for matching, and for each of its characters the offset of the original one it came from. */
export function normalizeForMatch(text: string): { text: string; from: number[] } {
  let out = "";
  const from: number[] = [];
  let space = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (/\s/.test(char)) {
      space = out.length > 0;
      continue;
    }
    const mapped = QUOTE_MARKS[char] ?? (DASHES.test(char) ? "-" : char === "…" ? "..." : fold(char).toLowerCase());
    if (mapped.length === 0) continue;
    if (space) {
      out += " ";
      from.push(index);
      space = false;
    }
    for (const piece of mapped) {
      out += piece;
      from.push(index);
    }
  }
  return { text: out, from };
}

/** The quote's fragments: the parts an ellipsis separates, trimmed of quote marks and stray punctuation at their ends. */
export function quoteFragments(quote: string): string[] {
  return quote
    .split(/\.{3}|…|\[\.\.\.\]/)
    .map((part) => part.trim().replace(/^["'“”‘’\s]+|["'“”‘’\s]+$/g, ""))
    .filter((part) => part.length > 0);
}

const wordCount = (text: string) => text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;

export type QuoteMatch = { ok: true; spans: QuoteSpan[] } | { ok: false; problem: "not_found" | "too_short" };

/** Each fragment of `quote` as a span of `source` (offsets into it), or why the quote is not in it. */
export function findQuote(source: ReturnType<typeof normalizeForMatch>, quote: string): QuoteMatch {
  const fragments = quoteFragments(quote);
  if (fragments.length === 0) return { ok: false, problem: "too_short" };
  const spans: QuoteSpan[] = [];
  for (const fragment of fragments) {
    const needle = normalizeForMatch(fragment).text.replace(/[.,;:!?]+$/, "");
    if (wordCount(needle) < MIN_QUOTE_WORDS) {
      // A short piece between two ellipses is kept only if the quote has a longer one too.
      if (fragments.length > 1) continue;
      return { ok: false, problem: "too_short" };
    }
    const at = wholeWordsAt(source.text, needle);
    if (at < 0) return { ok: false, problem: "not_found" };
    spans.push({ start: source.from[at]!, end: source.from[at + needle.length - 1]! + 1 });
  }
  return spans.length > 0 ? { ok: true, spans } : { ok: false, problem: "too_short" };
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** The first place `needle` is in `text` starting and ending on word boundaries ("art of" is not in "start off"), or -1. */
function wholeWordsAt(text: string, needle: string): number {
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    const before = text[at - 1];
    const after = text[at + needle.length];
    const startsInWord = before !== undefined && WORD_CHAR.test(before) && WORD_CHAR.test(needle[0]!);
    const endsInWord = after !== undefined && WORD_CHAR.test(after) && WORD_CHAR.test(needle.at(-1)!);
    if (!startsInWord && !endsInWord) return at;
  }
  return -1;
}

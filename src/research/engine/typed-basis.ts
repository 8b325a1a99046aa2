import type { CitationDto, Synthesis } from "./brief";
import { bestSupport } from "./llm-synthesis";
import { terms } from "./text";

/** A typed field's value is supported by a passage holding this share of its words. */
const SUPPORT = 0.6;

function scalarText(value: unknown): string | null {
  if (typeof value === "string") return value.trim() || null;
  if (typeof value === "number") return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item === "string" || typeof item === "number")) return value.join(" ");
  return null;
}

/**
 * The basis of a typed object, per top-level field: the passage of a cited source that best
 * holds the field's value (its words, or the value verbatim). Fields whose value no source
 * supports (booleans, nested objects, values the sources do not state) get no entry.
 */
export function typedCitations(typed: unknown, synthesis: Synthesis): CitationDto[] {
  if (typeof typed !== "object" || typed === null || Array.isArray(typed)) return [];
  const out: CitationDto[] = [];
  for (const [field, value] of Object.entries(typed)) {
    const text = scalarText(value);
    if (!text) continue;
    const valueTerms = terms(text.replace(/\s*\[\d+\]/g, ""));
    let best: { source: number; passage: CitationDto & { support: number } } | null = null;
    synthesis.cited.forEach((doc, source) => {
      const verbatim = doc.passages.find((passage) => passage.text.includes(text));
      const match = verbatim ? { passage: verbatim, support: 1 } : bestSupport(valueTerms, doc.passages);
      if (!match || (best && best.passage.support >= match.support)) return;
      const { passage } = match;
      best = { source, passage: { claim: `${field}: ${text}`, source, quote: doc.text.slice(passage.start, passage.end), start: passage.start, end: passage.end, support: match.support } };
    });
    const found = best as { source: number; passage: CitationDto & { support: number } } | null;
    if (found && found.passage.support >= SUPPORT) {
      const { support: _support, ...citation } = found.passage;
      out.push({ ...citation, field });
    }
  }
  return out;
}

import { type CitationDto, citationOf, type Synthesis } from "./brief";
import type { Passage } from "../evidence";
import { bestSupport } from "./llm-synthesis";
import { terms } from "../language";

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
    let best: { source: number; passage: Passage; support: number } | null = null;
    for (const [source, doc] of synthesis.cited.entries()) {
      const verbatim = doc.passages.find((passage) => passage.text.includes(text));
      const match = verbatim ? { passage: verbatim, support: 1 } : bestSupport(valueTerms, doc.passages);
      if (match && (!best || match.support > best.support)) best = { source, ...match };
    }
    if (best && best.support >= SUPPORT) out.push({ ...citationOf(`${field}: ${text}`, best.source, synthesis.cited[best.source]!, best.passage), field });
  }
  return out;
}

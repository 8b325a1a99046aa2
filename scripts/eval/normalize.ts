/**
 * SQuAD/HotpotQA answer normalisation, a copy of `normalizeAnswer` in
 * src/research/engine/text.ts (kept apart so the evaluation does not move when the engine does):
 * accents folded, lower case, no punctuation, no articles, single spaces.
 */
export function normalizeAnswer(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, "")
    .replace(/\b(a|an|the)\b/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

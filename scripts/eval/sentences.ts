/**
 * A full stop that ends an initial or a common abbreviation ("Roger O. Egeberg", "Dr. Howard",
 * "U.S. Navy"), not a sentence.
 */
const NOT_A_SENTENCE_END = /(?:^|[\s("'“])(?:\p{Lu}|Mr|Mrs|Ms|Dr|St|Mt|Jr|Sr|Gen|Col|Lt|Capt|Rev|Prof|vs|etc|e\.g|i\.e|(?:\p{Lu}\.)+\p{Lu})\.$/u;

/** The first sentence of the first non-empty line, without leading markdown markers. */
export function openingSentence(brief: string): string {
  const line =
    brief
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l.replace(/[#>*_\-\s]/g, "") !== "") ?? "";
  for (const end of line.matchAll(/[.!?](?=\s+)/g)) {
    const sentence = line.slice(0, end.index + 1);
    if (!NOT_A_SENTENCE_END.test(sentence)) return sentence;
  }
  return line;
}

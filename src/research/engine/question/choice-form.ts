/**
 * A pick between two named options, written in another shape than "Ask, A or B?", rewritten to
 * that comma form, the one the choice and comparison readers take:
 * - the options after a question mark: "Who was born first? Jan de Bont or Raoul Walsh?";
 * - the options after a colon: "Which of the following had a debut album entitled X: Hot Hot Heat
 *   or The Operation M.D.?";
 * - an option described in a clause of its own: "Who was born first, James D Grant, who uses the
 *   pen name of Lee Child, or Bernhard Schlink?" asks of James D Grant.
 * Each option must start with a capital (a name), so "What came first? the war or the treaty?"
 * stays as it was. Any other question is returned unchanged. Pure text.
 */

/** The ask, a question mark or a colon, then two capitalised options joined by "or". */
const OPTIONS_AFTER_A_BREAK = /^([Ww]hich|[Ww]ho|[Ww]hat)\b([^?:]*?)\s*[?:]\s*((?:[Tt]he\s+)?\p{Lu}[^,?:]*?\s+or\s+(?:[Tt]he\s+)?\p{Lu}[^,?:]*?)\s*\?*$/u;

/** ", A, who / which / whose …, or B": the clause between the first option and "or". */
const DESCRIBED_OPTION =
  /^((?:[Ww]hich|[Ww]ho|[Ww]hat)\b[^,?]*,\s*(?:[Tt]he\s+)?\p{Lu}[^,?]*?),\s*(?:who|which|whose|also)\b[^,?]*,\s*(or\s+(?:[Tt]he\s+)?\p{Lu}[^,?]*?\s*\??)$/u;

export function inChoiceForm(question: string): string {
  const text = question.trim();
  const broken = OPTIONS_AFTER_A_BREAK.exec(text);
  if (broken) return `${broken[1]}${broken[2]}, ${broken[3]}?`;
  const described = DESCRIBED_OPTION.exec(text);
  if (described) return `${described[1]} ${described[2]}`;
  return question;
}

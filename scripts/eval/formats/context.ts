/**
 * Building a HotpotQA `context` from titled paragraphs. HotpotQA has one paragraph per title;
 * MuSiQue (and now and then 2Wiki) has several paragraphs under one title, which the evaluation's
 * corpus holds as one document per title. So paragraphs of one title become one context entry,
 * each paragraph one "sentence" of it (the second and later ones opening with a blank line, which
 * the loader keeps as the paragraph break), and a supporting fact points at its paragraph there.
 */
import { PARAGRAPH_BREAK, type HotpotQuestion } from "../dataset";

export interface TitledParagraph {
  title: string;
  text: string;
  supporting: boolean;
}

export function hotpotContext(paragraphs: readonly TitledParagraph[]): Pick<HotpotQuestion, "context" | "supporting_facts"> {
  const entries = new Map<string, string[]>();
  const supportingFacts: [string, number][] = [];
  for (const { title, text, supporting } of paragraphs) {
    const trimmed = text.trim();
    if (!trimmed) continue;
    const sentences = entries.get(title) ?? [];
    // The same paragraph twice under one title (MuSiQue repeats some) is one paragraph.
    let index = sentences.findIndex((sentence) => sentence.trim() === trimmed);
    if (index < 0) {
      index = sentences.length;
      sentences.push(index === 0 ? trimmed : `${PARAGRAPH_BREAK}${trimmed}`);
      entries.set(title, sentences);
    }
    if (supporting && !supportingFacts.some(([t, i]) => t === title && i === index)) supportingFacts.push([title, index]);
  }
  return { context: [...entries], supporting_facts: supportingFacts };
}

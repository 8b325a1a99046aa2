/**
 * IRCoT's few-shot prompt files (StonyBrookNLP/ircot, prompts/<dataset>/gold_with_3_distractors_
 * context_direct_qa_codex.txt) as HotpotQA-format questions. IRCoT builds them from its
 * annotated training questions; each is a "# METADATA: {"qid": …}" line, its paragraphs as
 * "Wikipedia Title: <title>" blocks (the gold ones and three distractors, unmarked), then
 * "Q: <question>" and "A: <answer>". Which paragraphs are gold is not said, so there are no
 * supporting facts: such questions train the answer model (scripts/train-answer.ts), which needs
 * only the question, its paragraphs and its answer, and are no use for measuring retrieval.
 */
import type { HotpotQuestion } from "../dataset";
import { hotpotContext, type TitledParagraph } from "./context";

export function isIrcotPrompt(text: string): boolean {
  return text.trimStart().startsWith("# METADATA:");
}

export function fromIrcotPrompt(path: string, text: string): HotpotQuestion[] {
  return text
    .split(/^# METADATA: /m)
    .filter((block) => block.trim() !== "")
    .map((block, index) => {
      const [metadata = "", ...lines] = block.split("\n");
      const qid = (JSON.parse(metadata) as { qid?: unknown }).qid;
      const question = lines
        .find((line) => line.startsWith("Q: "))
        ?.slice(3)
        .trim();
      const answer = lines
        .find((line) => line.startsWith("A: "))
        ?.slice(3)
        .trim();
      if (typeof qid !== "string" || !question || !answer) throw new Error(`${path}: question ${index + 1} lacks a qid, a "Q:" or an "A:" line`);
      const paragraphs: TitledParagraph[] = [];
      for (const [at, line] of lines.entries()) {
        if (!line.startsWith("Wikipedia Title: ")) continue;
        const body: string[] = [];
        for (const next of lines.slice(at + 1)) {
          if (next.trim() === "" || next.startsWith("Wikipedia Title: ") || next.startsWith("Q: ")) break;
          body.push(next);
        }
        paragraphs.push({ title: line.slice("Wikipedia Title: ".length).trim(), text: body.join(" "), supporting: false });
      }
      return { _id: qid, question, answer, answer_aliases: [], ...hotpotContext(paragraphs) };
    });
}

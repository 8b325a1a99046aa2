/**
 * Any record of MuSiQue's or 2WikiMultihopQA's native formats (or HotpotQA's, in its original or
 * Hugging Face shape) as a HotpotQA-format question. MuSiQue-Full's unanswerable contrast questions
 * are left out: their supporting paragraph for some hop was removed, so their gold answer cannot
 * be found in the sources.
 */
import type { HotpotQuestion } from "../dataset";
import { fromMusique, isMusiqueRecord } from "./musique";
import { fromTwoWiki, isTwoWikiRecord } from "./two-wiki";

export interface Converted {
  questions: HotpotQuestion[];
  /** MuSiQue records with answerable: false. */
  unanswerable: number;
}

export function convertRecords(records: readonly unknown[], source: string): Converted {
  const questions: HotpotQuestion[] = [];
  let unanswerable = 0;
  records.forEach((record, index) => {
    if (isMusiqueRecord(record)) {
      if (record.answerable === false) unanswerable++;
      else questions.push(fromMusique(record));
    } else if (isTwoWikiRecord(record)) {
      questions.push(fromTwoWiki(record, `${source}#${index}`));
    } else {
      throw new Error(`${source}: record ${index} is neither MuSiQue (paragraphs) nor 2Wiki / HotpotQA (context, supporting_facts)`);
    }
  });
  return { questions, unanswerable };
}

/** One question per line: small diffs, and a file a person can still grep. */
export function formatHotpotFile(questions: readonly HotpotQuestion[]): string {
  return `[\n${questions.map((question) => JSON.stringify(question)).join(",\n")}\n]\n`;
}

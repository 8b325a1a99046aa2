/**
 * Converts a MuSiQue (.jsonl) or 2WikiMultihopQA (.json) file of the datasets' native formats, or
 * an IRCoT few-shot prompt file (formats/ircot-prompt.ts), into the HotpotQA format `npm run eval`
 * reads (answer aliases kept as `answer_aliases`).
 *
 *   npx tsx scripts/eval/convert.ts <in> <out>
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseHotpotFile } from "./dataset";
import { convertRecords, formatHotpotFile } from "./formats/convert-records";
import { fromIrcotPrompt, isIrcotPrompt } from "./formats/ircot-prompt";
import { readRecords } from "./formats/read-records";

const [input, output, ...rest] = process.argv.slice(2);
if (!input || !output || rest.length) {
  console.error("usage: npx tsx scripts/eval/convert.ts <in.jsonl|in.json> <out.json>");
  process.exit(2);
}
try {
  const raw = readFileSync(input, "utf8");
  const { questions, unanswerable } = isIrcotPrompt(raw)
    ? { questions: fromIrcotPrompt(input, raw), unanswerable: 0 }
    : convertRecords(readRecords(input, raw), input);
  const text = formatHotpotFile(questions);
  parseHotpotFile(output, text); // what is written must load
  writeFileSync(output, text);
  console.log(`wrote ${questions.length} questions to ${output}${unanswerable ? `; left out ${unanswerable} unanswerable MuSiQue questions` : ""}`);
} catch (error) {
  console.error(`convert failed: ${(error as Error).message}`);
  process.exit(1);
}

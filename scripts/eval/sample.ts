/**
 * A seeded sample of a HotpotQA-format file (e.g. 150 questions of 2wiki-train.json), written in
 * the same format; the same seed makes the same sample.
 *
 *   npx tsx scripts/eval/sample.ts <in.json> <out.json> <N> [--seed S]   (seed 25 by default)
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseHotpotFile } from "./dataset";
import { formatHotpotFile } from "./formats/convert-records";
import { seededSample } from "./formats/seeded-sample";

const DEFAULT_SEED = 25;

const args = process.argv.slice(2);
const seedAt = args.indexOf("--seed");
const seed = seedAt >= 0 ? Number(args.splice(seedAt, 2)[1]) : DEFAULT_SEED;
const [input, output, count] = args;
const size = Number(count);
if (!input || !output || !Number.isInteger(size) || size < 1 || !Number.isInteger(seed) || args.length !== 3) {
  console.error("usage: npx tsx scripts/eval/sample.ts <in.json> <out.json> <N> [--seed S]");
  process.exit(2);
}
const questions = parseHotpotFile(input, readFileSync(input, "utf8"));
const sample = seededSample(questions, size, seed);
writeFileSync(output, formatHotpotFile(sample));
console.log(`wrote ${sample.length} of ${questions.length} questions of ${input} to ${output} (seed ${seed})`);

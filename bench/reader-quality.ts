// npm run bench:reader:quality -- DIR (issue 42): main-text quality of the page reader, old
// (`extractHtml`, the guard) against new (`extractPage`), on pages each in a folder of DIR with
// source.html and expected.html (the layout of Mozilla Readability's test/test-pages; fetch the
// repository and pass that folder: the pages stay out of this repository).
//
// Metric: the article-extraction benchmark's shingle matching. Tokens are runs of letters, digits
// and "_" (/[\p{L}\p{N}_]+/u, Python's \w); a shingle is 4 consecutive tokens, counted with
// multiplicity; per page tp = shared shingles, fp = extracted only, fn = expected only, each divided
// by tp + fp + fn so long pages weigh no more than short ones; precision is the mean over pages with
// any extracted shingle, recall the mean over pages with any expected one, F1 from those two means.
// An empty extraction counts as recall 0 and is left out of precision (as the benchmark does).
//
// The pages are split by name order: the first half ("tune") is what the reader's thresholds were
// set on, the second ("held out") was only looked at after; both are printed, and all pages.
// Note: expected.html of these pages is Readability's own output, so they flatter Readability;
// they say more about the guard and about what the fallback rules cost.
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { parseHTML } from "linkedom";
import { extractPageWithPath } from "../src/research/providers/reader/extract.ts";
import { extractHtml } from "../src/research/providers/reader/html.ts";
import { measuredCommit, writeResults } from "./report.ts";

/** An older extractor to compare with: READER_OLD=path of a module exporting extractHtml (e.g. html.ts from `git show <commit>:...`). */
const older: ((html: string) => Promise<{ text: string }> | { text: string }) | null = process.env.READER_OLD
  ? (await import(process.env.READER_OLD)).extractHtml
  : null;

const lines: string[] = [];
const log = (line = "") => {
  console.log(line);
  lines.push(line);
};

const dir = process.argv[2] ?? process.env.READER_PAGES;
if (!dir || !existsSync(dir)) {
  console.error("usage: npm run bench:reader:quality -- <folder of page folders, each with source.html and expected.html>");
  process.exit(2);
}

type Counts = [tp: number, fp: number, fn: number];

function shingles(text: string): Map<string, number> {
  const tokens = text.match(/[\p{L}\p{N}_]+/gu) ?? [];
  const counts = new Map<string, number>();
  for (let i = 0; i < Math.max(1, tokens.length - 3); i++) {
    const shingle = tokens.slice(i, i + 4).join(" ");
    if (shingle) counts.set(shingle, (counts.get(shingle) ?? 0) + 1);
  }
  return counts;
}

function match(expected: string, extracted: string): Counts {
  const truth = shingles(expected);
  const guess = shingles(extracted);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const key of new Set([...truth.keys(), ...guess.keys()])) {
    const t = truth.get(key) ?? 0;
    const g = guess.get(key) ?? 0;
    tp += Math.min(t, g);
    fp += Math.max(0, g - t);
    fn += Math.max(0, t - g);
  }
  const sum = tp + fp + fn;
  return sum > 0 ? [tp / sum, fp / sum, fn / sum] : [0, 0, 0];
}

const precisionOf = ([tp, fp, fn]: Counts) => (fp === 0 && fn === 0 ? 1 : tp === 0 && fp === 0 ? 0 : tp / (tp + fp));
const recallOf = ([tp, fp, fn]: Counts) => (fp === 0 && fn === 0 ? 1 : tp === 0 && fn === 0 ? 0 : tp / (tp + fn));
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

function summary(rows: { counts: Counts; empty: boolean }[]) {
  const precision = mean(rows.filter(({ counts: [tp, fp] }) => tp + fp > 0).map(({ counts }) => precisionOf(counts)));
  const recall = mean(rows.filter(({ counts: [tp, , fn] }) => tp + fn > 0).map(({ counts }) => recallOf(counts)));
  const f1s = rows.map(({ counts }) => {
    const p = precisionOf(counts);
    const r = recallOf(counts);
    return p + r > 0 ? (2 * p * r) / (p + r) : 0;
  });
  return {
    f1: (2 * precision * recall) / (precision + recall),
    precision,
    recall,
    below: f1s.filter((f1) => f1 < 0.5).length,
    empty: rows.filter((row) => row.empty).length,
  };
}

const names = readdirSync(dir)
  .filter((name) => existsSync(join(dir, name, "source.html")) && existsSync(join(dir, name, "expected.html")))
  .sort();
interface Row {
  name: string;
  older: { counts: Counts; empty: boolean } | null;
  old: { counts: Counts; empty: boolean };
  now: { counts: Counts; empty: boolean };
  path: string;
}
const rows: Row[] = [];
for (const name of names) {
  const source = readFileSync(join(dir, name, "source.html"), "utf8");
  const expectedHtml = readFileSync(join(dir, name, "expected.html"), "utf8");
  const expected = parseHTML(`<!doctype html><html><body>${expectedHtml}</body></html>`).document.body?.textContent ?? "";
  const url = `http://fakehost/test/${name}/page.html`;
  const old = extractHtml(source).text;
  const before = older ? (await older(source)).text : null;
  const { page, path } = extractPageWithPath(source, url);
  rows.push({
    name,
    older: before === null ? null : { counts: match(expected, before), empty: !before.trim() },
    old: { counts: match(expected, old), empty: !old.trim() },
    now: { counts: match(expected, page.text), empty: !page.text.trim() },
    path,
  });
}

const half = Math.ceil(rows.length / 2);
const sets = { tune: rows.slice(0, half), "held out": rows.slice(half), all: rows };
const fmt = (value: number) => value.toFixed(3);
log(`${rows.length} pages from ${dir} (tune: first ${half} by name, held out: the other ${rows.length - half})\n`);
log("| pages | extractor | F1 | precision | recall | pages below 0.5 | empty |");
log("|---|---|---|---|---|---|---|");
for (const [label, set] of Object.entries(sets)) {
  for (const [extractor, pick] of [
    ...(older ? ([[`before (${process.env.READER_OLD})`, (row: Row) => row.older!]] as const) : []),
    ["guard (extractHtml)", (row: Row) => row.old],
    ["extractPage", (row: Row) => row.now],
  ] as const) {
    const s = summary(set.map(pick));
    log(`| ${label} (${set.length}) | ${extractor} | ${fmt(s.f1)} | ${fmt(s.precision)} | ${fmt(s.recall)} | ${s.below} | ${s.empty} |`);
  }
}
const paths = new Map<string, number>();
for (const row of rows) paths.set(row.path, (paths.get(row.path) ?? 0) + 1);
log(`\nextractPage's path: ${[...paths].map(([path, count]) => `${path} ${count}`).join(", ")}`);
if (process.env.READER_PAGES_VERBOSE) {
  for (const row of rows) {
    const f1 = (counts: Counts) => {
      const p = precisionOf(counts);
      const r = recallOf(counts);
      return p + r > 0 ? ((2 * p * r) / (p + r)).toFixed(2) : "0.00";
    };
    log(
      `${row.name.padEnd(48)} ${row.older ? `before ${f1(row.older.counts)} ` : ""}guard ${f1(row.old.counts)} extractPage ${f1(row.now.counts)} ${row.path}`,
    );
  }
}
log(`\nCommit ${measuredCommit()}, ${new Date().toISOString()}.`);
console.log(`Results: ${writeResults(lines, "reader-quality")}`);

// npm run bench:corpus: the local corpus search (the default search path of every job) at the
// demo size and at ~20k documents, in the local D1 `npm start` uses, on the eval questions.
// Times the query the service runs against the one it replaced (snippet computed in the ranking
// query), checks both return the same documents in the same order, and writes
// its results file (bench/report.ts).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { upsertDocuments } from "../scripts/lib/local-d1.mjs";
import { sotuDocuments } from "../scripts/seed-corpus.mjs";
import { rankedSearchSql, toFtsQuery } from "../src/research/providers/search/corpus";
import { machineLoad, measuredCommit, median, scratchD1, writeResults } from "./report.ts";

const ROUNDS = 5;
const LIMIT = 8;
const HERE = dirname(fileURLToPath(import.meta.url));
const QUESTIONS = (JSON.parse(readFileSync(join(HERE, "..", "eval", "heldout-multihop.json"), "utf8")) as { question: string }[])
  .map((item) => item.question)
  .slice(0, 12);

/** The query this replaced: the snippet is an output column of the ranking query. */
const BEFORE_SQL =
  "SELECT d.url, d.title, d.domain, snippet(corpus_fts, 1, '', '', ' … ', 40) AS snippet, bm25(corpus_fts, 10, 1) AS rank " +
  "FROM corpus_fts JOIN corpus_documents d ON d.id = corpus_fts.rowid WHERE corpus_fts MATCH ? ORDER BY rank LIMIT ?";
const NOW_SQL = rankedSearchSql(["corpus_fts MATCH ?"]);

/** Median per question over the rounds, then the median over the questions (ms), and the urls each returned. */
async function measure(db: D1Database, sql: string) {
  const perQuestion: number[] = [];
  const urls: string[][] = [];
  for (const question of QUESTIONS) {
    const statement = db.prepare(sql).bind(toFtsQuery(question), LIMIT);
    urls.push((await statement.all<{ url: string }>()).results.map((row) => row.url));
    const times: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const start = performance.now();
      await statement.all();
      times.push(performance.now() - start);
    }
    perQuestion.push(median(times));
  }
  return { ms: median(perQuestion), urls };
}

/** The speeches cut into ~500-character passages: a corpus of ~20k documents with real text. */
function passages(): { url: string; title: string; text: string; domain: string }[] {
  return sotuDocuments().flatMap((doc) => {
    const pieces = doc.text.match(/[\s\S]{1,500}(?:\s|$)/g) ?? [];
    return pieces.map((text, i) => ({ url: `${doc.url}#${i}`, title: `${doc.title}, part ${i + 1}`, text, domain: "passages.corpus" }));
  });
}

const { db, close } = await scratchD1("corpus");
const rows: string[] = [];
try {
  for (const [label, docs] of [
    ["demo (State of the Union)", sotuDocuments()],
    ["+ passages", passages()],
  ] as const) {
    await upsertDocuments(db, docs, 50);
    const count = ((await db.prepare("SELECT COUNT(*) AS n FROM corpus_documents").first()) as { n: number }).n;
    const floorTimes: number[] = [];
    for (let i = 0; i < 9; i++) {
      const start = performance.now();
      await db.prepare("select 1").all();
      floorTimes.push(performance.now() - start);
    }
    const floor = median(floorTimes);
    const before = await measure(db, BEFORE_SQL);
    const now = await measure(db, NOW_SQL);
    const same = before.urls.every((urls, i) => JSON.stringify(urls) === JSON.stringify(now.urls[i]));
    const row = `| ${label} | ${count} | ${floor.toFixed(1)} | ${before.ms.toFixed(1)} | ${now.ms.toFixed(1)} | ${same ? "yes" : "NO"} |`;
    console.log(row);
    rows.push(row);
  }
} finally {
  await close();
}

const report = [
  `# Corpus search (${new Date().toISOString().slice(0, 10)}, ${measuredCommit()})`,
  "",
  `Local D1 (workerd SQLite through wrangler's proxy: \`select 1\` is the round-trip floor). ${QUESTIONS.length} eval questions`,
  `as the engine queries them (toFtsQuery), ${LIMIT} hits each; median over ${ROUNDS} runs a question, then over the questions, in ms.`,
  `${machineLoad()} (at the end)`,
  "",
  "| corpus | documents | select 1 | before | now | same hits, same order |",
  "|---|---|---|---|---|---|",
  ...rows,
  "",
];
console.log(`wrote ${writeResults(report, "corpus-search")}`);

/**
 * Evaluation of the research engine on HotpotQA (distractor setting):
 *   npm run eval -- <hotpotqa.json> [lite|standard|pro|max] [--per-question]
 * Loads every context paragraph of the file into a fresh local corpus (one document per title,
 * url https://en.wikipedia.org/wiki/<Title_with_underscores>), asks each question through the
 * real engine (offline extractive unless LLM_PROVIDER is set), and prints per question and in
 * total: supporting-document recall, both-gold rate, answer recall (yes/no counted apart),
 * citation precision, latency and cost. With --per-question, each question is asked of a corpus
 * holding only its own ten paragraphs (HotpotQA's distractor setting) instead of the pooled one.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createProviders, runResearch } from "../src/research/engine";
import { ingestDocuments } from "../src/research/providers/corpus-store";
import { normalizeAnswer } from "../src/research/engine/text";
import { budgetsForMode, RESEARCH_MODES, type ResearchMode } from "../src/services/pricing";
import { applyMigrations, openLocalD1 } from "./lib/local-d1.mjs";

interface HotpotQuestion {
  _id: string;
  question: string;
  answer: string;
  type: string;
  supporting_facts: [string, number][];
  context: [string, string[]][];
}

const args = process.argv.slice(2);
const perQuestion = args.includes("--per-question");
const [file, modeArg = "standard"] = args.filter((arg) => arg !== "--per-question");
if (!file || !RESEARCH_MODES.includes(modeArg as ResearchMode)) {
  console.error("usage: npm run eval -- <hotpotqa.json> [lite|standard|pro|max] [--per-question]");
  process.exit(2);
}
const mode = modeArg as ResearchMode;
const questions = JSON.parse(readFileSync(file, "utf8")) as HotpotQuestion[];
const wikiUrl = (title: string) => `https://en.wikipedia.org/wiki/${encodeURIComponent(title.replace(/ /g, "_")).replace(/%2C/g, ",").replace(/%28/g, "(").replace(/%29/g, ")")}`;

const dir = mkdtempSync(join(tmpdir(), "research-eval-"));
const { db, dispose } = await openLocalD1(dir);
try {
  await applyMigrations(db);
  const documents = new Map<string, { url: string; title: string; text: string; domain: string }>();
  for (const question of questions) {
    for (const [title, sentences] of question.context) {
      documents.set(title, { url: wikiUrl(title), title, text: sentences.join("").trim(), domain: "en.wikipedia.org" });
    }
  }
  if (!perQuestion) await ingestDocuments(db, [...documents.values()]);
  console.log(
    `corpus: ${perQuestion ? "each question's own 10 paragraphs" : `${documents.size} documents from ${questions.length} questions`}; mode ${mode}; LLM ${process.env.LLM_PROVIDER ?? "extractive"}\n`,
  );

  const providers = createProviders({ SEARCH_PROVIDER: "corpus", LLM_PROVIDER: process.env.LLM_PROVIDER, LLM_MODEL: process.env.LLM_MODEL, OPENAI_API_KEY: process.env.OPENAI_API_KEY, OPENAI_BASE_URL: process.env.OPENAI_BASE_URL, ANTHROPIC_API_KEY: process.env.ANTHROPIC_API_KEY }, db);
  const budgets = budgetsForMode(mode, { maxCredits: mode === "max" ? 500 : undefined });
  const rows: { recall: number; both: boolean; answer: boolean; yesNo: boolean; precision: number; latency: number; cost: number }[] = [];
  for (const [index, question] of questions.entries()) {
    if (perQuestion) {
      await db.prepare("DELETE FROM corpus_documents").run();
      await ingestDocuments(db, question.context.map(([title]) => documents.get(title)!));
    }
    const gold = new Set(question.supporting_facts.map(([title]) => wikiUrl(title)));
    const started = Date.now();
    const result = await runResearch({ question: question.question, mode, budgets, include_sources: true }, { providers });
    const latency = Date.now() - started;
    const cited = new Set(result.sources.map((source) => source.url));
    const hits = [...gold].filter((url) => cited.has(url)).length;
    const yesNo = ["yes", "no"].includes(normalizeAnswer(question.answer));
    const opening = normalizeAnswer(result.brief.split("\n")[0] ?? "");
    const answer = yesNo ? opening.startsWith(`${normalizeAnswer(question.answer)} `) : normalizeAnswer(result.brief).includes(normalizeAnswer(question.answer));
    const row = { recall: hits / gold.size, both: hits === gold.size, answer, yesNo, precision: cited.size ? hits / cited.size : 0, latency, cost: result.cost_usd };
    rows.push(row);
    console.log(
      `${String(index + 1).padStart(2)} ${row.both ? "both" : `${hits}/${gold.size} `} ${answer ? "ans" : "---"}${yesNo ? "(y/n)" : "     "} ` +
        `prec ${row.precision.toFixed(2)} ${String(latency).padStart(5)} ms $${result.cost_usd.toFixed(4)} w${result.wave_count} s${result.searches} p${result.pages} ${result.stopped_reason.padEnd(15)} ${question.question.slice(0, 70)}`,
    );
    if (process.env.EVAL_VERBOSE) console.log(`   expected: ${question.answer}\n${result.brief.split("\n").map((line) => `   | ${line}`).join("\n")}\n   sources: ${result.sources.map((source) => source.title).join(" ; ")}\n`);
  }
  const mean = (values: number[]) => (values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : 0);
  const open = rows.filter((row) => !row.yesNo);
  const yesNo = rows.filter((row) => row.yesNo);
  const sortedLatency = rows.map((row) => row.latency).sort((a, b) => a - b);
  console.log(`
| metric | value |
|---|---|
| questions | ${rows.length} (${open.length} open, ${yesNo.length} yes/no) |
| supporting-document recall | ${mean(rows.map((row) => row.recall)).toFixed(3)} |
| both gold documents cited | ${mean(rows.map((row) => (row.both ? 1 : 0))).toFixed(3)} |
| answer recall (non yes/no) | ${mean(open.map((row) => (row.answer ? 1 : 0))).toFixed(3)} |
| answer recall (yes/no, direct answer) | ${mean(yesNo.map((row) => (row.answer ? 1 : 0))).toFixed(3)} |
| citation precision | ${mean(rows.map((row) => row.precision)).toFixed(3)} |
| latency p50 / max | ${sortedLatency[Math.floor(sortedLatency.length / 2)]} ms / ${sortedLatency[sortedLatency.length - 1]} ms |
| cost per question (mean) | $${mean(rows.map((row) => row.cost)).toFixed(4)} |`);
} finally {
  await dispose();
  rmSync(dir, { recursive: true, force: true });
}

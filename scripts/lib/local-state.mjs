// The local state `npm start` serves, prepared in one process: the D1 migrations, then the demo
// corpus when it is empty. Both go through one platform proxy (one Miniflare) instead of
// `wrangler d1 migrations apply` (a second wrangler, which on our 2-core machines took ~15 s of
// CPU a start and printed its 13-row table twice) followed by the seed's own proxy.
import { applyMigrations, openLocalD1 } from "./local-d1.mjs";
import { SOTU_DOMAIN, seedCorpusIfEmpty } from "../seed-corpus.mjs";

/**
 * @param {string | undefined} persistTo wrangler's --persist-to directory (default .wrangler/state)
 * @returns {Promise<{ migrations: string[], corpus: string }>} the migrations applied, and one line on the corpus
 */
export async function prepareLocalState(persistTo) {
  const { db, dispose } = await openLocalD1(persistTo);
  try {
    const migrations = await applyMigrations(db);
    const outcome = await seedCorpusIfEmpty(db);
    const corpus =
      "present" in outcome
        ? `${outcome.present} documents in the local corpus`
        : `seeded the local corpus with ${outcome.seeded} State of the Union addresses (${SOTU_DOMAIN})`;
    return { migrations, corpus };
  } finally {
    await dispose();
  }
}

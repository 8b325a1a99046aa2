// Local D1 for operator scripts (seed, corpus loader, eval): wrangler's platform proxy over the
// same Miniflare storage that `wrangler dev` and `wrangler d1 execute --local` use
// (`<persist-to>/v3`, default `.wrangler/state/v3`), so what a script writes, `npm start` serves.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "..", "..");

/**
 * A wrangler config with only the D1 binding of wrangler.toml (same binding, name and id, so
 * the same local database file), so the proxy does not start the worker's Durable Objects.
 */
function d1OnlyConfig() {
  const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
  const section = /\[\[d1_databases\]\][\s\S]*?(?=\n\[|$)/.exec(toml);
  if (!section) throw new Error("wrangler.toml has no [[d1_databases]] section");
  const dir = mkdtempSync(join(tmpdir(), "d1-config-"));
  const path = join(dir, "wrangler.toml");
  const date = /compatibility_date\s*=\s*"([^"]+)"/.exec(toml)?.[1] ?? "2025-01-01";
  writeFileSync(path, `name = "local-d1-scripts"\ncompatibility_date = "${date}"\n\n${section[0].replace(/migrations_dir\s*=.*\n?/, "")}\n`);
  return { path, dir };
}

/**
 * @param {string | undefined} persistTo wrangler's --persist-to directory (default .wrangler/state)
 * @returns {Promise<{ db: D1Database, dispose: () => Promise<void> }>}
 */
export async function openLocalD1(persistTo) {
  const config = d1OnlyConfig();
  const base = persistTo ? resolve(process.cwd(), persistTo) : join(ROOT, ".wrangler", "state");
  // Loaded here, not at the top: wrangler takes ~2 s of CPU to import, and the scripts that only
  // read the demo speeches or post documents over HTTP (corpus:load --admin) never open D1.
  const { getPlatformProxy } = await import("wrangler");
  const proxy = await getPlatformProxy({ configPath: config.path, persist: { path: join(base, "v3") }, remoteBindings: false });
  return {
    db: proxy.env.DB,
    dispose: async () => {
      await proxy.dispose();
      rmSync(config.dir, { recursive: true, force: true });
    },
  };
}

/**
 * Applies the migrations/ files not yet recorded in d1_migrations, as `wrangler d1 migrations apply`
 * does (the same table, so either sees what the other applied), and returns the names it applied.
 */
export async function applyMigrations(db) {
  await db
    .prepare(
      "CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)",
    )
    .run();
  const dir = join(ROOT, "migrations");
  const applied = new Set((await db.prepare("SELECT name FROM d1_migrations").all()).results.map((row) => row.name));
  const applying = [];
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith(".sql"))
    .sort()) {
    if (applied.has(file)) continue;
    const statements = readFileSync(join(dir, file), "utf8")
      .split("--> statement-breakpoint")
      .map((statement) => statement.trim())
      .filter((statement) => statement.replace(/--.*$/gm, "").trim());
    await db.batch([...statements.map((statement) => db.prepare(statement)), db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(file)]);
    applying.push(file);
  }
  return applying;
}

const UPSERT =
  "INSERT INTO corpus_documents (url, title, domain, text, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) " +
  "ON CONFLICT(url) DO UPDATE SET title = excluded.title, domain = excluded.domain, text = excluded.text, updated_at = excluded.updated_at";

/**
 * Adds or replaces documents by url (the same statement as the admin endpoint's ingestion).
 * @param {D1Database} db
 * @param {{ url: string, title: string, text: string, domain: string }[]} documents
 */
export async function upsertDocuments(db, documents, batchSize = 20) {
  const at = new Date().toISOString();
  const statement = db.prepare(UPSERT);
  for (let start = 0; start < documents.length; start += batchSize) {
    await db.batch(documents.slice(start, start + batchSize).map((doc) => statement.bind(doc.url, doc.title.trim(), doc.domain, doc.text.trim(), at, at)));
  }
  return documents.length;
}

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { getPlatformProxy } from "wrangler";

/**
 * Local D1 for operator scripts: wrangler's platform proxy over the same Miniflare storage
 * `wrangler dev` and `wrangler d1 execute --local` use (`<persistTo>/v3/d1`), so what a script
 * writes, `npm start` serves.
 */
export async function openLocalD1(persistTo?: string): Promise<{ db: D1Database; dispose: () => Promise<void> }> {
  const proxy = await getPlatformProxy<{ DB: D1Database }>({
    configPath: join(import.meta.dirname, "..", "..", "wrangler.toml"),
    persist: persistTo ? { path: join(persistTo, "v3") } : true,
  });
  return { db: proxy.env.DB, dispose: () => proxy.dispose() };
}

/** Applies the migrations/ SQL files not yet recorded in d1_migrations (as `wrangler d1 migrations apply` does). */
export async function applyMigrations(db: D1Database): Promise<void> {
  await db.prepare("CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)").run();
  const dir = join(import.meta.dirname, "..", "..", "migrations");
  const applied = new Set((await db.prepare("SELECT name FROM d1_migrations").all<{ name: string }>()).results.map((row) => row.name));
  for (const file of readdirSync(dir).filter((name) => name.endsWith(".sql")).sort()) {
    if (applied.has(file)) continue;
    const statements = readFileSync(join(dir, file), "utf8")
      .split("--> statement-breakpoint")
      .map((statement) => statement.trim())
      .filter((statement) => statement.replace(/--.*$/gm, "").trim());
    await db.batch([...statements.map((statement) => db.prepare(statement)), db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(file)]);
  }
}

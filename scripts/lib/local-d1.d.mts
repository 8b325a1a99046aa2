/** Types of local-d1.mjs (plain JavaScript so `node scripts/seed-corpus.mjs` runs without a TypeScript loader). */
export declare const ROOT: string;
export declare function openLocalD1(persistTo?: string): Promise<{ db: D1Database; dispose: () => Promise<void> }>;
export declare function applyMigrations(db: D1Database): Promise<string[]>;
export declare function upsertDocuments(
  db: D1Database,
  documents: { url: string; title: string; text: string; domain: string }[],
  batchSize?: number,
): Promise<number>;

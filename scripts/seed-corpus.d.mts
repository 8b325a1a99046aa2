/** Types of seed-corpus.mjs (plain JavaScript so `node scripts/seed-corpus.mjs` runs without a TypeScript loader). */
export declare const SOTU_DOMAIN: string;
export declare function sotuDocuments(): { url: string; title: string; text: string; domain: string }[];
export declare function seedCorpusIfEmpty(db: D1Database): Promise<{ seeded: number } | { present: number }>;

// The settings several parts of npm run bench read (environment variables, with their defaults).

export const DURATION_SECS = Number(process.env.BENCH_DURATION ?? 10);
export const FIXTURE_LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 200);
/** The tail of the fixture's latency in the concurrency and SSE sections (log-normal, p50 as above). */
export const FIXTURE_P99_MS = Number(process.env.BENCH_P99_MS ?? 2000);
export const ADMIN = "bench-admin@example.com";

import { buildApp } from "./app";
import type { Env } from "./env";

export { RateLimiter } from "./services/rate-limiter";
export { ResearchJob } from "./research/job";

const app = buildApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;

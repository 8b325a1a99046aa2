import { buildApp } from "./app";
import type { Env } from "./env";
import type { TaskMessage } from "./research/job-tasks";
import { sweepStuckJobs } from "./research/sweep";
import { consumeDeadTaskBatch, consumeTaskBatch } from "./research/tasks";
import { consumeWebhookBatch, type WebhookMessage } from "./webhooks/delivery";

export { RateLimiter } from "./services/rate-limiter";
export { ResearchJob } from "./research/job";

const app = buildApp();

export default {
  fetch: app.fetch,

  /** Queue consumers, by queue name (wrangler.toml). */
  async queue(batch, env) {
    switch (batch.queue) {
      case "research-tasks":
        return consumeTaskBatch(batch as MessageBatch<TaskMessage>, env);
      case "research-tasks-dlq":
        return consumeDeadTaskBatch(batch as MessageBatch<TaskMessage>, env);
      case "webhook-deliveries":
        return consumeWebhookBatch(batch as MessageBatch<WebhookMessage>, env);
      default:
        throw new Error(`no consumer for queue ${batch.queue}`);
    }
  },

  /** Cron trigger: the sweep that settles jobs stuck past their deadline. */
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(sweepStuckJobs(env).then((r) => console.log(`sweep: ${r.checked} overdue, ${r.settled} settled`)));
  },
} satisfies ExportedHandler<Env>;

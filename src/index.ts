import { buildApp } from "./app";
import type { Env } from "./env";
import type { TaskMessage } from "./research/job-tasks";
import { createDb } from "./db/client";
import { sweepStuckJobs } from "./research/sweep";
import { grantFreeMonth } from "./services/billing/free-plan";
import { consumeDeadTaskBatch, consumeTaskBatch } from "./research/tasks";
import { consumeWebhookBatch, type WebhookMessage } from "./webhooks/delivery";

export { RateLimiter } from "./services/rate-limiter";
export { ResearchJob } from "./research/job";

const app = buildApp();

export default {
  fetch: app.fetch,

  /** Queue consumers, by queue name (wrangler.toml). */
  async queue(batch: MessageBatch, env: Env, ctx?: ExecutionContext) {
    switch (batch.queue) {
      case "research-tasks":
        return consumeTaskBatch(batch as MessageBatch<TaskMessage>, env, ctx);
      case "research-tasks-dlq":
        return consumeDeadTaskBatch(batch as MessageBatch<TaskMessage>, env);
      case "webhook-deliveries":
        return consumeWebhookBatch(batch as MessageBatch<WebhookMessage>, env);
      default:
        throw new Error(`no consumer for queue ${batch.queue}`);
    }
  },

  /** Cron trigger (every minute): settle jobs stuck past their deadline; the Free plan's monthly credits. */
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(sweepStuckJobs(env).then((r) => r.checked > 0 && console.log(`sweep: ${r.checked} overdue, ${r.settled} settled`)));
    ctx.waitUntil(grantFreeMonth(createDb(env.DB)).then((n) => n > 0 && console.log(`free plan: ${n} accounts topped up`)));
  },
} satisfies ExportedHandler<Env>;

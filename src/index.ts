import { buildApp } from "./app";
import { createDb } from "./db/client";
import { type Env, loadConfig } from "./env";
import { consumeDeadTaskBatch, consumeTaskBatch, isTaskQueue, sweepStuckJobs } from "./research/service";
import { grantFreeMonth } from "./services/billing/free-plan";
import { sweepOverageReports } from "./services/billing/overage-reports";
import { sweepFailedEmails } from "./services/email";
import { consumeWebhookBatch, sweepDueWebhooks } from "./webhooks/delivery";
import { sweepMonitors } from "./monitors/sweep";

// The Durable Object classes wrangler.toml names.
export { ResearchJob } from "./research/service";
export { RateLimiter } from "./rate-limit/counter-object";

const app = buildApp();

export default {
  fetch: app.fetch,

  /** Queue consumers, by queue name (wrangler.toml). */
  async queue(batch: MessageBatch, env: Env, ctx?: ExecutionContext) {
    if (isTaskQueue(batch.queue)) return consumeTaskBatch(batch, env, ctx);
    switch (batch.queue) {
      case "research-tasks-dlq":
        return consumeDeadTaskBatch(batch, env);
      case "webhook-deliveries":
        return consumeWebhookBatch(batch, env);
      default:
        throw new Error(`no consumer for queue ${batch.queue}`);
    }
  },

  /**
   * Cron trigger (every minute): settle jobs stuck past their deadline; send again the webhook
   * deliveries whose next attempt is overdue (their queue message was lost); the Free plan's
   * monthly credits; overage that failed to reach the billing meter, sent again within Stripe's window;
   * emails whose every attempt failed on a 429, a 5xx or no answer, sent again within Resend's 24 h
   * of their Idempotency-Key; monitors' finished runs settled and due runs started.
   */
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(sweepStuckJobs(env).then((r) => r.checked > 0 && console.log(`sweep: ${r.checked} overdue, ${r.settled} settled`)));
    ctx.waitUntil(
      sweepDueWebhooks(env).then(
        (r) => r.resent.length + r.givenUp.length > 0 && console.log(`webhook sweep: ${r.resent.length} re-sent, ${r.givenUp.length} given up`),
      ),
    );
    ctx.waitUntil(
      // Monitors (issue 45): settle finished runs (their diff, `monitor.changed`), start the due ones.
      Promise.resolve()
        .then(() => sweepMonitors({ db: createDb(env.DB), config: loadConfig(env), env, defer: (work) => ctx.waitUntil(work) }))
        .then((r) => r.settled + r.started + r.paused > 0 && console.log(`monitor sweep: ${r.settled} settled, ${r.started} started, ${r.paused} paused`)),
    );
    ctx.waitUntil(grantFreeMonth(createDb(env.DB)).then((n) => n > 0 && console.log(`free plan: ${n} accounts topped up`)));
    ctx.waitUntil(
      // Inside a promise: a configuration error must not stop the sweeps above.
      Promise.resolve()
        .then(() => sweepOverageReports({ db: createDb(env.DB), config: loadConfig(env) }))
        .then(
          (r) => r.reported + r.failed + r.givenUp > 0 && console.log(`overage sweep: ${r.reported} reported, ${r.failed} failed again, ${r.givenUp} given up`),
        ),
    );
    ctx.waitUntil(
      Promise.resolve()
        .then(() => sweepFailedEmails(createDb(env.DB), loadConfig(env)))
        .then((r) => r.sent + r.failed + r.givenUp > 0 && console.log(`email sweep: ${r.sent} sent, ${r.failed} failed again, ${r.givenUp} given up`)),
    );
  },
} satisfies ExportedHandler<Env>;

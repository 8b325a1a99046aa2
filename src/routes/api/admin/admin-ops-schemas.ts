import { z } from "@hono/zod-openapi";
import { datetime, int } from "./admin-schemas";

/** DTOs of the admin surface for the service's own records: stats, processor events, overage reports, emails, the audit log. */

export const AdminSignupBucket = z
  .object({ day: datetime("The UTC day, as its midnight."), count: int("Accounts created that day.") })
  .openapi("AdminSignupBucket", { description: "Sign-ups of one UTC day." });
export const AdminJobBucket = z
  .object({
    day: datetime("The UTC day, as its midnight."),
    count: int("Jobs started that day."),
    credits_charged_sum: int("Credits they were charged."),
    cost_usd_micros_sum: int("Their metered cost in micro-USD."),
  })
  .openapi("AdminJobBucket", { description: "Research jobs of one UTC day." });
export const AdminStatsDto = z
  .object({
    signups_last_30d: z.array(AdminSignupBucket).openapi({ description: "Sign-ups of the 30 UTC days ending today, oldest first, zero-filled." }),
    jobs_last_30d: z.array(AdminJobBucket).openapi({ description: "Jobs of the 30 UTC days ending today, oldest first, zero-filled." }),
    topup_revenue_last_30d_cents: int(
      "Revenue from packs and auto top-ups completed in the last 30 × 24 hours, in US cents (plans are subscription revenue, not counted).",
    ),
    total_users: int("Accounts."),
    suspended_users: int("Accounts suspended now."),
    open_tickets: int("Tickets that are not closed."),
    in_flight_jobs: int("Jobs pending or running now."),
    ledger_balance_outstanding: int("The sum of every balance: credits owed to users."),
  })
  .openapi("AdminStatsDto", { description: "Business figures." });

export const AdminProcessorEventRow = z
  .object({
    id: z.string().openapi({ description: "The processor's event id." }),
    event_type: z.string().openapi({ description: "The processor's event type, e.g. `checkout.session.completed`." }),
    received_at: datetime("When the event arrived (UTC)."),
    has_body: z.boolean().openapi({ description: "Whether its raw body was stored (only then can it be replayed)." }),
    status: z.enum(["received", "processed", "ignored", "failed", "unsupported"]).openapi({
      description:
        'What applying it did: `processed`; `ignored` (nothing to do); `failed` (the processor delivers it again; replay it once fixed); `unsupported`: of another Stripe API version than the one this server reads, so not applied, and answered 400 so Stripe shows the delivery failed and retries it for up to 3 days: set the webhook endpoint\'s API version (README "Billing"); `received`: being applied.',
    }),
    error: z.string().nullable().openapi({ description: "Why it failed or is unsupported; null otherwise." }),
    attempts: int("How many times it was applied (deliveries and replays)."),
  })
  .openapi("AdminProcessorEventRow", { description: "A payment processor event received." });

export const AdminOverageReportRow = z
  .object({
    id: z.uuid().openapi({ description: "The report's id, sent as the meter event's `identifier`: every retry sends the same one, so Stripe counts it once." }),
    user_id: z.uuid().openapi({ description: "The user whose plan overage it is." }),
    user_email: z.string().nullable().openapi({ description: "Their email; null if the account is gone." }),
    credits: int("The overage credits it reports (the meter event's value)."),
    status: z.enum(["pending", "reported", "failed", "skipped", "abandoned"]).openapi({
      description:
        "`pending`: the first send is under way; `reported`: Stripe has it; `failed`: the cron sweep sends it again at `next_attempt_at`; `skipped`: never sent and never retried, because payments were not configured on the server (no `STRIPE_SECRET_KEY`) or the user had no Stripe customer when the overage was used; `error` says which, and its credits stay unbilled unless billed by hand; `abandoned`: given up past Stripe's window (35 days; 24 hours when `in_doubt`), `error` says why: bill it by hand if it is still owed.",
    }),
    attempts: int("Sends tried so far."),
    in_doubt: z.boolean().openapi({
      description:
        "A failed send may have reached Stripe (a network error or a 5xx): retried only within the identifier's 24-hour de-duplication, so it can never be billed twice.",
    }),
    error: z.string().nullable().openapi({ description: "The last error, or why it was given up; null when reported." }),
    created_at: datetime("When the overage was used (UTC)."),
    next_attempt_at: datetime("When the sweep sends it again (UTC); null when nothing is due.").nullable(),
    reported_at: datetime("When Stripe accepted it (UTC); null until then.").nullable(),
  })
  .openapi("AdminOverageReportRow", { description: "A plan overage report to the payment processor's billing meter." });

export const AdminEmailRow = z
  .object({
    id: z.uuid().openapi({ description: "The email's id." }),
    to: z.string().openapi({ description: "The recipient's address." }),
    subject: z.string().openapi({ description: "The subject line." }),
    text: z.string().openapi({ description: "The plain-text body." }),
    created_at: datetime("When it was sent (UTC)."),
    delivery_status: z.enum(["outbox", "sent", "failed"]).openapi({
      description:
        "`outbox`: only recorded (no email provider configured); `sent`: the provider accepted it; `failed`: every attempt failed. A failed email whose failures were a 429, a 5xx or no answer is sent again by the cron sweep while `next_attempt_at` is set (within the provider's 24 hours of its Idempotency-Key); any other 4xx stays failed.",
    }),
    delivery_error: z.string().nullable().openapi({ description: "Why the last attempt failed, as the provider said it; null unless failed." }),
    attempts: int("Requests made to the provider for this email, the first send's and the sweep's (0 for emails recorded before attempts were counted)."),
    next_attempt_at: z.iso
      .datetime()
      .nullable()
      .openapi({ description: "When the sweep sends a failed email again; null when nothing is due (sent, or failed for good)." }),
  })
  .openapi("AdminEmailRow", { description: "An email the service sent." });

export const AdminAuditRow = z
  .object({
    id: z.uuid().openapi({ description: "The entry's id." }),
    admin_id: z.string().openapi({ description: "The admin who acted." }),
    admin_email: z.string().nullable().openapi({ description: "Their email at the time; null if unknown." }),
    action: z.string().openapi({
      description:
        "What was done: `user.credits_adjust`, `user.suspend`, `user.unsuspend`, `job.refund`, `ticket.reply`, `ticket.close`, `ticket.reopen`, `processor_event.replay`, `corpus.ingest` or `corpus.delete_domain`.",
      example: "user.credits_adjust",
    }),
    target_type: z
      .string()
      .openapi({ description: "What kind of thing it was done to: `user`, `job`, `ticket`, `processor_event` or `corpus`.", example: "user" }),
    target_id: z.string().nullable().openapi({ description: "The id of that thing (a domain for the corpus); null when none." }),
    details: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: "What changed: amounts, notes, the resulting balance, the previous status or the outcome, as fits the action." }),
    created_at: datetime("When it was done (UTC)."),
  })
  .openapi("AdminAuditRow", { description: "One admin action, in the audit trail." });

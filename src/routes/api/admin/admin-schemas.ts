import { z } from "@hono/zod-openapi";
import { JobSummaryDto } from "../../../research/service";
import { errorResponses } from "../../../http/openapi";
import { PagingQuery } from "../../../lib/paging";

/** DTOs and bodies of the admin surface (spec: Admin user / job records, Ticket records, Admin stats and events). */

export const adminErrors = (...extra: Parameters<typeof errorResponses>) =>
  errorResponses("invalid_request", "unauthorized", "forbidden", "account_suspended", ...extra);

const datetime = z.iso.datetime();
const int = z.int();

/** A processor event id (a string, not a UUID), e.g. `evt_1Nx...`. */
export const ProcessorEventIdParam = z.object({
  id: z.string().min(1).max(255).openapi({ param: { name: "id", in: "path" }, example: "evt_1NxExample" }),
});

/** An optional query filter that must be one of `values` (anything else is 400). */
export const enumFilter = <T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.enum(values).optional().openapi({ param: { name, in: "query" } });

export const queryString = (name: string, max = 254) =>
  z.string().trim().min(1).max(max).optional().openapi({ param: { name, in: "query" } });

export const withPaging = <T extends z.ZodRawShape>(shape: T) => PagingQuery.extend(shape);

export const AdminUserRow = z
  .object({
    id: z.uuid(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    is_admin: z.boolean(),
    created_at: datetime,
    credits: int,
    suspended_at: datetime.nullable().optional(),
  })
  .openapi("AdminUserRow");

export const AdminUserDetail = AdminUserRow.extend({
  email_verified: z.boolean(),
  marketing_emails_enabled: z.boolean(),
  jobs_count: int,
  open_tickets: int.openapi({ description: "The user's tickets that are not closed" }),
  processor_customer_id: z.string().nullable().optional(),
  storage: z
    .object({ collections: int, documents: int, bytes: int, quota_bytes: int.openapi({ description: "What the user's plan may keep" }) })
    .openapi({ description: "The user's collections: how many, their documents and bytes of text" }),
}).openapi("AdminUserDetail");

export const AdminUserJobRow = JobSummaryDto.openapi("AdminUserJobRow");

export const AdminLedgerRow = z
  .object({
    id: z.uuid(),
    created_at: datetime,
    kind: z.string().openapi({ description: "signup_bonus, purchase, plan_grant, auto_topup, reservation, release, refund, admin_adjustment, overage" }),
    delta: int,
    balance_after: int,
    idempotency_key: z.string().nullable().optional(),
    note: z.string().nullable().optional(),
    related_id: z.string().nullable().optional(),
  })
  .openapi("AdminLedgerRow");

const Note = z.string().trim().min(1, { error: "must not be empty" }).max(500);
const AdminIdempotencyKey = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .nullable()
  .optional()
  .openapi({ description: "Client-supplied: a resubmit with the same key (and body) applies nothing and answers like the first." });

export const CreditAdjustBody = z
  .strictObject({
    delta_credits: z
      .int({ error: "delta_credits must be an integer" })
      .min(-1_000_000, { error: "delta_credits must be at least -1000000" })
      .max(1_000_000, { error: "delta_credits must be at most 1000000" })
      .refine((n) => n !== 0, { error: "delta_credits must not be zero" })
      .openapi({ description: "Credits to add (positive) or remove (negative); never takes the balance below zero." }),
    note: Note,
    idempotency_key: AdminIdempotencyKey,
  })
  .openapi("CreditAdjustBody");

export const CreditAdjustResponse = z.object({ balance_after: int }).openapi("CreditAdjustResponse");

export const RefundBody = z
  .strictObject({
    credits: z
      .int({ error: "credits must be an integer" })
      .min(1, { error: "credits must be positive" })
      .max(1_000_000, { error: "credits must be at most 1000000" }),
    note: Note,
    idempotency_key: AdminIdempotencyKey,
  })
  .openapi("RefundBody");

export const AdminJobRow = JobSummaryDto.extend({ user_id: z.uuid(), user_email: z.string() }).openapi("AdminJobRow");

export const AdminJobDetail = AdminJobRow.extend({
  credits_reserved: int,
  request: z.record(z.string(), z.unknown()).openapi({ description: "The raw body that was posted" }),
  response: z.record(z.string(), z.unknown()).nullable().openapi({ description: "The raw final response; null while pending" }),
  completed_at: datetime.nullable().optional(),
  error: z.string().nullable().optional(),
  source_count: int.nullable().optional(),
  wave_count: int.nullable().optional(),
}).openapi("AdminJobDetail");

export const AdminTicketRow = z
  .object({
    id: z.uuid(),
    user_id: z.uuid().nullable().optional(),
    email: z.string(),
    category: z.string(),
    subject: z.string(),
    status: z.string(),
    created_at: datetime,
    reply_count: int,
  })
  .openapi("AdminTicketRow");

export const AdminTicketReply = z
  .object({ id: z.uuid(), admin_id: z.uuid().nullable().optional(), body: z.string(), sent_email: z.boolean(), created_at: datetime })
  .openapi("AdminTicketReply");

export const AdminTicketDetail = AdminTicketRow.omit({ reply_count: true })
  .extend({ body: z.string(), assigned_admin_id: z.uuid().nullable().optional(), replies: z.array(AdminTicketReply) })
  .openapi("AdminTicketDetail");

export const ReplyBody = z
  .strictObject({
    body: z.string().trim().min(1, { error: "body must not be empty" }).max(10_000),
    send_email: z.boolean(),
  })
  .openapi("ReplyBody");

export const AdminSignupBucket = z.object({ day: datetime, count: int }).openapi("AdminSignupBucket");
export const AdminJobBucket = z
  .object({ day: datetime, count: int, credits_charged_sum: int, cost_usd_micros_sum: int })
  .openapi("AdminJobBucket");
export const AdminStatsDto = z
  .object({
    signups_last_30d: z.array(AdminSignupBucket),
    jobs_last_30d: z.array(AdminJobBucket),
    topup_revenue_last_30d_cents: int,
    total_users: int,
    suspended_users: int,
    open_tickets: int,
    in_flight_jobs: int,
    ledger_balance_outstanding: int,
  })
  .openapi("AdminStatsDto");

export const AdminProcessorEventRow = z
  .object({ id: z.string(), event_type: z.string(), received_at: datetime, has_body: z.boolean() })
  .openapi("AdminProcessorEventRow");

export const AdminEmailRow = z
  .object({ id: z.uuid(), to: z.string(), subject: z.string(), text: z.string(), created_at: datetime })
  .openapi("AdminEmailRow");

export const AdminAuditRow = z
  .object({
    id: z.uuid(),
    admin_id: z.string(),
    admin_email: z.string().nullable(),
    action: z.string().openapi({ example: "user.credits_adjust" }),
    target_type: z.string().openapi({ example: "user" }),
    target_id: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
    created_at: datetime,
  })
  .openapi("AdminAuditRow");

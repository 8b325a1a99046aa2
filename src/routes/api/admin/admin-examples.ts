import type { z } from "@hono/zod-openapi";
import type { AdminJobDetail, AdminJobRow, AdminLedgerRow, AdminTicketDetail, AdminTicketRow, AdminUserDetail, AdminUserRow } from "./admin-schemas";
import type { AdminAuditRow, AdminEmailRow, AdminOverageReportRow, AdminProcessorEventRow, AdminStatsDto } from "./admin-ops-schemas";

/**
 * The examples the reference shows for the operator surface, shaped like real answers of this
 * service. Typed by their schemas here, and validated against the published schemas by
 * test/openapi-reference.test.ts.
 */

type Input<T extends z.ZodType> = z.input<T>;

const USER_ID = "4672496b-6c96-46ca-b6a6-0d01df76b1c9";
const ADMIN_ID = "0d5f3b1e-8c2a-4e7d-9b6f-1a2c3d4e5f60";
const JOB_ID = "63b1e89d-8acd-48c3-9508-7482112b2305";
const TICKET_ID = "9953e98a-3121-4f1c-8df6-ef48a5e48a3c";

export const adminUserRowExample = {
  id: USER_ID,
  email: "ada@example.com",
  first_name: "Ada",
  last_name: "Lovelace",
  is_admin: false,
  created_at: "2026-11-23T17:59:48.301Z",
  credits: 2425,
  suspended_at: null,
} satisfies Input<typeof AdminUserRow>;

export const adminUserDetailExample = {
  ...adminUserRowExample,
  email_verified: true,
  marketing_emails_enabled: false,
  jobs_count: 3,
  open_tickets: 1,
  processor_customer_id: "cus_R4nDoMExample",
  storage: { collections: 1, documents: 1, bytes: 57, quota_bytes: 52428800 },
} satisfies Input<typeof AdminUserDetail>;

export const adminJobRowExample = {
  id: JOB_ID,
  created_at: "2026-11-23T17:59:49.149Z",
  status: "succeeded",
  question: "What did presidents say about tariffs in the 1890s?",
  credits_charged: 15,
  cost_usd_micros: 17000,
  latency_ms: 297,
  user_id: USER_ID,
  user_email: "ada@example.com",
} satisfies Input<typeof AdminJobRow>;

export const adminJobDetailExample = {
  ...adminJobRowExample,
  credits_reserved: 15,
  request: { question: "What did presidents say about tariffs in the 1890s?", mode: "lite", include_sources: true },
  response: {
    id: JOB_ID,
    status: "succeeded",
    question: "What did presidents say about tariffs in the 1890s?",
    brief: "Presidents of the 1890s argued over tariff reform ... [1]",
    answer: { text: "Cleveland wanted lower tariff charges on the necessaries of life.", confidence: "medium", citations: [0] },
    typed: null,
    sources: [{ url: "corpus://sotu.corpus/1893-grover-cleveland", title: "Grover Cleveland: State of the Union address, 1893", domain: "sotu.corpus" }],
    citations: [],
    credits_charged: 15,
    cost_usd: 0.017,
    created_at: "2026-11-23T17:59:49.149Z",
    completed_at: "2026-11-23T17:59:49.500Z",
    error: null,
    latency_ms: 297,
    wave_count: 1,
  },
  completed_at: "2026-11-23T17:59:49.500Z",
  error: null,
  source_count: 1,
  wave_count: 1,
  write_report: {
    claims: [
      { text: "Cleveland asked Congress to reduce tariff charges on the necessaries of life.", kept: true, revised: false, reason: null },
      { text: "Cleveland vetoed the tariff bill of 1894.", kept: false, revised: true, reason: "1894 is in none of its quotes" },
    ],
    answer: { text: "Cleveland wanted lower tariff charges on the necessaries of life.", kept: true, reason: null },
    calls: 2,
  },
} satisfies Input<typeof AdminJobDetail>;

export const adminLedgerExample = [
  {
    id: "5e2b7c91-0a4d-4f3e-8b6a-9c1d2e3f4a5b",
    created_at: "2026-11-24T09:30:12.007Z",
    kind: "admin_adjustment",
    delta: 100,
    balance_after: 2525,
    idempotency_key: "admin_adjustment:ticket-9953-goodwill",
    note: "Goodwill credit for ticket 9953e98a",
    related_id: null,
  },
  {
    id: "2c8d4f6a-1b3e-4a5c-9d7e-0f1a2b3c4d5e",
    created_at: "2026-11-23T17:59:49.160Z",
    kind: "reservation",
    delta: -15,
    balance_after: 2425,
    idempotency_key: `reservation:${JOB_ID}`,
    note: null,
    related_id: JOB_ID,
  },
] satisfies Input<typeof AdminLedgerRow>[];

export const adminTicketRowExample = {
  id: TICKET_ID,
  user_id: USER_ID,
  email: "ada@example.com",
  category: "billing",
  subject: "VAT number on invoices",
  status: "open",
  created_at: "2026-11-23T18:00:06.690Z",
  reply_count: 0,
} satisfies Input<typeof AdminTicketRow>;

export const adminTicketDetailExample = {
  id: TICKET_ID,
  user_id: USER_ID,
  email: "ada@example.com",
  category: "billing",
  subject: "VAT number on invoices",
  status: "answered",
  created_at: "2026-11-23T18:00:06.690Z",
  body: "Please add our VAT number DE123456789 to future invoices.",
  assigned_admin_id: ADMIN_ID,
  replies: [
    {
      id: "c41d3e2a-7b5f-4e8a-9d10-2f6b8a4c1e07",
      admin_id: ADMIN_ID,
      body: "Done: your next invoices will carry it.",
      sent_email: true,
      created_at: "2026-11-24T08:15:31.002Z",
    },
  ],
} satisfies Input<typeof AdminTicketDetail>;

export const adminStatsExample = {
  signups_last_30d: [
    { day: "2026-11-22T00:00:00.000Z", count: 4 },
    { day: "2026-11-23T00:00:00.000Z", count: 7 },
  ],
  jobs_last_30d: [
    { day: "2026-11-22T00:00:00.000Z", count: 31, credits_charged_sum: 1860, cost_usd_micros_sum: 2641000 },
    { day: "2026-11-23T00:00:00.000Z", count: 42, credits_charged_sum: 2310, cost_usd_micros_sum: 3305000 },
  ],
  topup_revenue_last_30d_cents: 27500,
  total_users: 318,
  suspended_users: 2,
  open_tickets: 5,
  in_flight_jobs: 3,
  ledger_balance_outstanding: 412870,
} satisfies Input<typeof AdminStatsDto>;

export const adminProcessorEventsExample = [
  {
    id: "evt_1QxCheckoutDone",
    event_type: "checkout.session.completed",
    received_at: "2026-11-23T18:11:47.412Z",
    has_body: true,
    status: "processed",
    error: null,
    attempts: 1,
  },
  {
    id: "evt_1QxInvoicePaid",
    event_type: "invoice.paid",
    received_at: "2026-11-23T18:11:48.020Z",
    has_body: true,
    status: "unsupported",
    error:
      'The event is of Stripe API version 2024-06-20, but this server reads 2026-10-28.endive: set the webhook endpoint\'s API version to 2026-10-28.endive (README "Billing"). The event was stored as unsupported, not applied.',
    attempts: 1,
  },
] satisfies Input<typeof AdminProcessorEventRow>[];

export const adminOverageReportsExample = [
  {
    id: "5d0c2b8e-7f41-4a36-9b1e-3c8d2f6a9e14",
    user_id: "0b7f3c1e-2a4d-4e8f-9c6b-1d5e7a3f2c90",
    user_email: "ada@example.com",
    credits: 500,
    status: "failed",
    attempts: 2,
    in_doubt: false,
    error: "StripeRateLimitError: Too many requests",
    created_at: "2026-11-23T18:20:03.114Z",
    next_attempt_at: "2026-11-23T18:26:03.114Z",
    reported_at: null,
  },
  {
    id: "9a4e6c21-3b7d-4f58-8e02-6d1c5b9f7a33",
    user_id: "4c2e8a6f-1b3d-4f7e-a9c5-8e2d6b4f1a07",
    user_email: "grace@example.com",
    credits: 200,
    status: "skipped",
    attempts: 0,
    in_doubt: false,
    error: "not sent: payments are not configured on this server (STRIPE_SECRET_KEY unset); not retried, bill it by hand if it is owed",
    created_at: "2026-11-22T09:41:37.530Z",
    next_attempt_at: null,
    reported_at: null,
  },
] satisfies Input<typeof AdminOverageReportRow>[];

export const adminEmailsExample = [
  {
    id: "8f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0",
    to: "ada@example.com",
    subject: "We received your request: VAT number on invoices",
    text: "Thanks for writing to us. We have your request and will answer by email.\n\nReference: 9953e98a-3121-4f1c-8df6-ef48a5e48a3c\nCategory: billing\nSubject: VAT number on invoices\n\nPlease add our VAT number DE123456789 to future invoices.",
    created_at: "2026-11-23T18:00:06.702Z",
    delivery_status: "failed",
    delivery_error: "Error: Resend answered 503: Service unavailable",
    attempts: 3,
    next_attempt_at: "2026-11-23T18:05:06.702Z",
  },
] satisfies Input<typeof AdminEmailRow>[];

export const adminAuditExample = [
  {
    id: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
    admin_id: ADMIN_ID,
    admin_email: "admin@example.com",
    action: "user.credits_adjust",
    target_type: "user",
    target_id: USER_ID,
    details: {
      delta_credits: 100,
      note: "Goodwill credit for ticket 9953e98a",
      balance_after: 2525,
      ledger_entry_id: "5e2b7c91-0a4d-4f3e-8b6a-9c1d2e3f4a5b",
      idempotency_key: "ticket-9953-goodwill",
    },
    created_at: "2026-11-24T09:30:12.007Z",
  },
] satisfies Input<typeof AdminAuditRow>[];

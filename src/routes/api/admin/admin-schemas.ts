import { z } from "@hono/zod-openapi";
import { JobSummaryDto } from "../../../research/service";
import { errorResponses } from "../../../http/openapi";
import { PagingQuery } from "../../../lib/paging";
import { LEDGER_KINDS } from "../../../db/schema/ledger";

/** DTOs and bodies of the admin surface: users, their ledger and credits, jobs, tickets (the service's own records: admin-ops-schemas.ts). */

export const adminErrors = (...extra: Parameters<typeof errorResponses>) =>
  errorResponses("invalid_request", "unauthorized", "forbidden", "account_suspended", ...extra);

/** A date-time field, with what it means. */
export const datetime = (description: string) => z.iso.datetime().openapi({ description });
/** An integer field, with what it means. */
export const int = (description: string) => z.int().openapi({ description });

/** A processor event id (a string, not a UUID), e.g. `evt_1Nx...`. */
export const ProcessorEventIdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(255)
    .openapi({
      param: { name: "id", in: "path" },
      description: "The payment processor's event id (any string up to 255 characters, not a UUID).",
      example: "evt_1NxExample",
    }),
});

/** An optional query filter that must be one of `values` (anything else is 400). */
export const enumFilter = <T extends readonly [string, ...string[]]>(name: string, values: T, description: string) =>
  z
    .enum(values)
    .optional()
    .openapi({ param: { name, in: "query" }, description: `${description} One of ${values.map((v) => `\`${v}\``).join(", ")}; absent: all.` });

/** An optional text filter (trimmed, 1 to `max` characters). */
export const queryString = (name: string, description: string, max = 254) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .optional()
    .openapi({ param: { name, in: "query" }, description });

export const withPaging = <T extends z.ZodRawShape>(shape: T) => PagingQuery.extend(shape);

export const AdminUserRow = z
  .object({
    id: z.uuid().openapi({ description: "The user's id." }),
    email: z.string().openapi({ description: "The user's email address." }),
    first_name: z.string().openapi({ description: "First name; empty when not given." }),
    last_name: z.string().openapi({ description: "Last name; empty when not given." }),
    is_admin: z.boolean().openapi({ description: "Whether the user is an admin (their email is in `ADMIN_EMAILS`)." }),
    created_at: datetime("When the account was created (UTC)."),
    credits: int("The balance in credits."),
    suspended_at: z.iso.datetime().nullable().optional().openapi({ description: "When the account was suspended (UTC); null or absent when it is not." }),
  })
  .openapi("AdminUserRow", { description: "A user in the operator's list." });

export const AdminUserDetail = AdminUserRow.extend({
  email_verified: z.boolean().openapi({ description: "Whether the user confirmed their email address." }),
  marketing_emails_enabled: z.boolean().openapi({ description: "Whether the user accepts marketing emails." }),
  jobs_count: int("Research jobs the user ever started (API and playground)."),
  open_tickets: int("The user's tickets that are not closed"),
  processor_customer_id: z
    .string()
    .nullable()
    .optional()
    .openapi({ description: "The user's customer id at the payment processor (`cus_...`); null before their first purchase." }),
  storage: z
    .object({
      collections: int("Collections the user has."),
      documents: int("Documents in them."),
      bytes: int("UTF-8 bytes of those documents' text."),
      quota_bytes: int("What the user's plan may keep"),
    })
    .openapi({ description: "The user's collections: how many, their documents and bytes of text" }),
}).openapi("AdminUserDetail", { description: "A user with their counts and storage." });

export const AdminUserJobRow = JobSummaryDto.openapi("AdminUserJobRow", { description: "One of a user's research jobs." });

export const AdminLedgerRow = z
  .object({
    id: z.uuid().openapi({ description: "The entry's id." }),
    created_at: datetime("When the balance changed (UTC)."),
    kind: z.string().openapi({ description: `Why the balance changed: ${LEDGER_KINDS.map((k) => `\`${k}\``).join(", ")}.` }),
    delta: int("Credits added (positive) or taken (negative)."),
    balance_after: int("The balance right after this entry; the entries' deltas always sum to the balance."),
    idempotency_key: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: "The key that makes this money movement unique (e.g. `admin_adjustment:<key>`, `payment:<payment id>`); null when none." }),
    note: z.string().nullable().optional().openapi({ description: "A human note (an admin's reason, what was bought); null when none." }),
    related_id: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: "What the entry is about: a job id (reservation, release, refund), a payment id, a collection id (ingest); null when nothing." }),
  })
  .openapi("AdminLedgerRow", { description: "One change of a user's balance." });

const Note = z
  .string()
  .trim()
  .min(1, { error: "must not be empty" })
  .max(500)
  .openapi({ description: "Why, 1 to 500 characters; saved on the ledger entry and in the audit trail." });
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
  .openapi("CreditAdjustBody", { description: "A credit adjustment." });

export const CreditAdjustResponse = z
  .object({ balance_after: int("The user's balance after the adjustment (on a resubmit, after the first one).") })
  .openapi("CreditAdjustResponse", { description: "The adjustment's result." });

export const RefundBody = z
  .strictObject({
    credits: z
      .int({ error: "credits must be an integer" })
      .min(1, { error: "credits must be positive" })
      .max(1_000_000, { error: "credits must be at most 1000000" })
      .openapi({ description: "Credits to give back to the job's owner: 1 up to what the job charged minus what was already refunded." }),
    note: Note,
    idempotency_key: AdminIdempotencyKey,
  })
  .openapi("RefundBody", { description: "A refund of a finished job." });

export const AdminJobRow = JobSummaryDto.extend({
  user_id: z.uuid().openapi({ description: "The owner's id." }),
  user_email: z.string().openapi({ description: "The owner's email address." }),
}).openapi("AdminJobRow", { description: "A research job of any user." });

/** The write stage's report (engine/write-report.ts): what it kept of a model's writing, and why not the rest. */
export const AdminWriteReport = z
  .object({
    claims: z
      .array(
        z.object({
          text: z.string().openapi({ description: "The claim as the model first wrote it." }),
          kept: z.boolean().openapi({ description: "Whether the brief holds it (as written, or as revised)." }),
          revised: z.boolean().openapi({ description: "It failed its first check and went back to the model once; kept: the revision checked." }),
          reason: z.string().nullable().openapi({
            description: 'Why it went back or was dropped ("the quote is not in source 3", "1898 is in none of its quotes"); null when it checked at once.',
          }),
        }),
      )
      .openapi({ description: "Every claim of the model's first write, in its order." }),
    answer: z
      .object({
        text: z.string().openapi({ description: "The short answer the model gave." }),
        kept: z.boolean().openapi({ description: "Whether the result states it." }),
        reason: z.string().nullable().openapi({ description: "Why it was not stated; null when kept." }),
      })
      .nullable()
      .openapi({ description: "The model's short answer; null when it gave none." }),
    calls: z.int().openapi({ description: "Model calls the write made: 1, or 2 when claims went back to be revised." }),
  })
  .openapi("AdminWriteReport", {
    description: "What the write stage did with a hosted model's writing: each claim and the short answer, kept or dropped, and why.",
  });

export const AdminJobDetail = AdminJobRow.extend({
  credits_reserved: int("Credits reserved when the job was accepted (the mode's price, or `max_credits`)."),
  request: z.record(z.string(), z.unknown()).openapi({ description: "The raw body that was posted" }),
  response: z.record(z.string(), z.unknown()).nullable().openapi({ description: "The raw final response; null while pending" }),
  completed_at: z.iso.datetime().nullable().optional().openapi({ description: "When the job reached a terminal state (UTC); null while it runs." }),
  error: z.string().nullable().optional().openapi({ description: "Why the job failed; null otherwise." }),
  source_count: z.int().nullable().optional().openapi({ description: "Sources the brief cites; null while the job runs." }),
  wave_count: z.int().nullable().optional().openapi({ description: "Waves the job ran; null while it runs." }),
  // A union, not .nullable(): .nullable().openapi() on a named schema rewrites the component itself.
  write_report: z.union([AdminWriteReport, z.null()]).optional().openapi({
    description:
      "With a hosted model: what the write stage kept of the model's claims and short answer, and why not the rest. Null for a job written offline, one that did not succeed, or one from before the field. Only here: the customer's result never carries it.",
  }),
}).openapi("AdminJobDetail", { description: "A job with its raw request and response." });

export const AdminTicketRow = z
  .object({
    id: z.uuid().openapi({ description: "The ticket's id." }),
    user_id: z.uuid().nullable().optional().openapi({ description: "The submitter's id; null if the account was deleted since." }),
    email: z.string().openapi({ description: "The submitter's email at submission (replies are emailed there)." }),
    category: z.string().openapi({ description: "`billing`, `technical`, `account`, `feature_request` or `other`." }),
    subject: z.string().openapi({ description: "The one-line summary." }),
    status: z.string().openapi({ description: "`open`, `answered` (an admin replied) or `closed`." }),
    created_at: datetime("When the ticket was submitted (UTC)."),
    reply_count: int("Replies so far."),
  })
  .openapi("AdminTicketRow", { description: "A support ticket in the operator's list." });

export const AdminTicketReply = z
  .object({
    id: z.uuid().openapi({ description: "The reply's id." }),
    admin_id: z.uuid().nullable().optional().openapi({ description: "The admin who replied; null if that account was deleted since." }),
    body: z.string().openapi({ description: "The reply's text." }),
    sent_email: z.boolean().openapi({ description: "Whether it was also emailed to the ticket's address." }),
    created_at: datetime("When it was written (UTC)."),
  })
  .openapi("AdminTicketReply", { description: "An admin's reply to a ticket." });

export const AdminTicketDetail = AdminTicketRow.omit({ reply_count: true })
  .extend({
    body: z.string().openapi({ description: "The ticket's text." }),
    assigned_admin_id: z.uuid().nullable().optional().openapi({ description: "The first admin who replied; null before any reply." }),
    replies: z.array(AdminTicketReply).openapi({ description: "The replies, oldest first." }),
  })
  .openapi("AdminTicketDetail", { description: "A ticket with its text and replies." });

export const ReplyBody = z
  .strictObject({
    body: z.string().trim().min(1, { error: "body must not be empty" }).max(10_000).openapi({ description: "The reply, 1 to 10,000 characters (trimmed)." }),
    send_email: z.boolean().openapi({ description: 'Also email the reply to the ticket\'s address ("Re: <subject>").' }),
  })
  .openapi("ReplyBody", { description: "A reply to a ticket." });

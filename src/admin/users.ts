import { and, count, desc, eq, isNotNull, isNull, ne, sql, sum } from "drizzle-orm";
import type { Db } from "../db/client";
import { verifiedKeys } from "../services/verified-keys";
import { collections, ledgerEntries, researchJobs, tickets, type UserRow, users } from "../db/schema";
import { ApiError } from "../lib/errors";
import type { Paging } from "../lib/paging";
import { nowIso } from "../lib/time";
import { jobListColumns, jobSummary, storageQuotaBytes } from "../research/service";
import { type Actor, auditAfterChange } from "../services/audit";
import { currentPlan } from "../services/billing/subscriptions";
import { applyLedgerChange, listLedgerEntries } from "../services/ledger";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function adminUserRow(u: UserRow) {
  return {
    id: u.id,
    email: u.email,
    first_name: u.firstName,
    last_name: u.lastName,
    is_admin: u.isAdmin,
    created_at: u.createdAt,
    credits: u.credits,
    suspended_at: u.suspendedAt,
  };
}

/** `q`: a full UUID matches the id exactly; anything else is a case-insensitive substring of the email. */
export async function listUsers(db: Db, q: string | undefined, page: Paging) {
  const term = q?.trim();
  const where = !term ? undefined : UUID.test(term) ? eq(users.id, term.toLowerCase()) : sql`instr(${users.email}, ${term.toLowerCase()}) > 0`;
  const rows = await db.select().from(users).where(where).orderBy(desc(users.createdAt), desc(sql`rowid`)).limit(page.limit).offset(page.offset);
  return rows.map(adminUserRow);
}

async function findUser(db: Db, id: string): Promise<UserRow> {
  const user = await db.select().from(users).where(eq(users.id, id)).get();
  if (!user) throw ApiError.notFound("User");
  return user;
}

export async function userDetail(db: Db, id: string) {
  const [[user], [jobs], [open], [stored]] = await db.batch([
    db.select().from(users).where(eq(users.id, id)),
    db.select({ n: count() }).from(researchJobs).where(eq(researchJobs.userId, id)),
    db
      .select({ n: count() })
      .from(tickets)
      .where(and(eq(tickets.userId, id), ne(tickets.status, "closed"))),
    db
      .select({ collections: count(), documents: sum(collections.documentCount), bytes: sum(collections.bytes) })
      .from(collections)
      .where(eq(collections.userId, id)),
  ]);
  if (!user) throw ApiError.notFound("User");
  const { plan } = await currentPlan(db, id);
  return {
    ...adminUserRow(user),
    email_verified: user.emailVerified,
    marketing_emails_enabled: user.marketingEmailsEnabled,
    jobs_count: jobs?.n ?? 0,
    open_tickets: open?.n ?? 0,
    processor_customer_id: user.processorCustomerId,
    storage: {
      collections: stored?.collections ?? 0,
      documents: Number(stored?.documents ?? 0),
      bytes: Number(stored?.bytes ?? 0),
      quota_bytes: storageQuotaBytes(plan.id),
    },
  };
}

/**
 * An admin credit adjustment: one `admin_adjustment` ledger entry. With an idempotency key the
 * ledger's unique (user, key) index makes a resubmit, even a concurrent one, a no-op that answers
 * the first `balance_after`; the same key with a different delta or note is 422.
 */
export async function adjustCredits(
  db: Db,
  actor: Actor,
  userId: string,
  input: { delta: number; note: string; idempotencyKey?: string | null },
): Promise<{ applied: boolean; balanceAfter: number; entryId: string }> {
  await findUser(db, userId);
  const change = {
    kind: "admin_adjustment" as const,
    delta: input.delta,
    note: input.note,
    // Namespaced so an admin key can never collide with the keys other ledger writers use.
    idempotencyKey: input.idempotencyKey ? `admin_adjustment:${input.idempotencyKey}` : null,
  };
  const result = await applyLedgerChange(db, userId, change, (entryId) =>
    auditAfterChange(db, actor, {
      action: "user.credits_adjust",
      targetType: "user",
      targetId: userId,
      details: {
        delta_credits: input.delta,
        note: input.note,
        balance_after: sql`(select ${ledgerEntries.balanceAfter} from ${ledgerEntries} where ${ledgerEntries.id} = ${entryId})`,
        ledger_entry_id: entryId,
        idempotency_key: input.idempotencyKey ?? null,
      },
    }),
  );
  if (result.status === "insufficient") {
    throw ApiError.invalid(
      `The adjustment would take the balance below zero: the balance is ${result.balance} credits, so at most ${result.balance} can be removed.`,
    );
  }
  const { entry } = result;
  if (result.status === "duplicate" && (entry.kind !== "admin_adjustment" || entry.delta !== input.delta || entry.note !== input.note)) {
    throw new ApiError("idempotency_key_reused", "This idempotency_key was already used for a different adjustment.");
  }
  return { applied: result.status === "applied", balanceAfter: entry.balanceAfter, entryId: entry.id };
}

export async function userJobs(db: Db, userId: string, page: Paging) {
  await findUser(db, userId);
  const rows = await db
    .select(jobListColumns)
    .from(researchJobs)
    .where(eq(researchJobs.userId, userId))
    .orderBy(desc(researchJobs.createdAt), desc(researchJobs.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map(jobSummary);
}

export async function userLedger(db: Db, userId: string, page: Paging) {
  await findUser(db, userId);
  const rows = await listLedgerEntries(db, userId, page);
  return rows.map((e) => ({
    id: e.id,
    created_at: e.createdAt,
    kind: e.kind,
    delta: e.delta,
    balance_after: e.balanceAfter,
    idempotency_key: e.idempotencyKey,
    note: e.note,
    related_id: e.relatedId,
  }));
}

/**
 * Suspends or unsuspends; a user already in that state is left alone (and nothing is audited), so
 * repeating a suspension keeps the first `suspended_at`. The effects (login and every JWT or API-key
 * call answer 403 `account_suspended`) live in the auth paths, which read `suspended_at` on every
 * request, but an API key's owner is read once per VERIFIED_KEY_TTL_MS in each isolate: this one
 * forgets the user at once, any other within that time.
 */
export async function setSuspended(db: Db, actor: Actor, userId: string, suspended: boolean): Promise<void> {
  if (suspended && userId === actor.id) throw ApiError.invalid("You cannot suspend your own account.");
  await findUser(db, userId);
  const now = nowIso();
  await db.batch([
    db
      .update(users)
      .set({ suspendedAt: suspended ? now : null, updatedAt: now })
      .where(and(eq(users.id, userId), suspended ? isNull(users.suspendedAt) : isNotNull(users.suspendedAt))),
    auditAfterChange(db, actor, { action: suspended ? "user.suspend" : "user.unsuspend", targetType: "user", targetId: userId }),
  ]);
  verifiedKeys.forgetUser(userId);
}

import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type Caller, callerColumns, type OAuthConnectionRow, oauthConnectionJobs, oauthConnections, users } from "../../db/schema";
import { randomBase62 } from "../../lib/crypto";
import { MINUTE, nowIso } from "../../lib/time";

/**
 * Connections (OAuth grants as the customer sees them) and their credit caps. A connection may
 * charge at most its cap over its life: each job it starts holds its reservation against the cap
 * until it settles, then counts what it was charged. The hold is one conditional insert, so two
 * submits at once cannot both pass the cap.
 */

/** A submit's hold without its job after this long is a submit that died on the way: it no longer counts. */
const STALE_HOLD_MS = 10 * MINUTE;

/**
 * Credits a connection's research holds now: what its finished jobs were charged, what its open
 * jobs reserved, and the holds of submits under way. As SQL over one connection id (`$id`).
 */
function heldCreditsSql(connectionId: unknown, staleBefore: string) {
  return sql`(select coalesce(sum(case
      when cj.job_id is null then case when cj.created_at > ${staleBefore} then cj.reserved else 0 end
      when j.status in ('succeeded', 'failed', 'cancelled') then j.credits_charged
      else j.credits_reserved end), 0)
    from oauth_connection_jobs cj left join research_jobs j on j.id = cj.job_id
    where cj.connection_id = ${connectionId})`;
}

export interface ConnectionUsage {
  /** Charged by the connection's finished jobs. */
  spent: number;
  /** Held by its jobs still running (their reservations). */
  reserved: number;
}

export interface Connection extends OAuthConnectionRow, ConnectionUsage {}

export interface NewConnection {
  userId: string;
  clientId: string;
  clientName: string;
  redirectUri: string;
  scope: string[];
  creditCap: number;
}

export async function createConnection(db: Db, input: NewConnection): Promise<OAuthConnectionRow> {
  const row: OAuthConnectionRow = {
    id: `conn_${randomBase62(24)}`,
    userId: input.userId,
    grantId: null,
    clientId: input.clientId,
    clientName: input.clientName,
    redirectUri: input.redirectUri,
    scope: input.scope.join(" "),
    creditCap: input.creditCap,
    createdAt: nowIso(),
    lastUsedAt: null,
    revokedAt: null,
  };
  await db.insert(oauthConnections).values(row);
  return row;
}

/** Record the library's grant once completeAuthorization stored it (revocation reaches it through this id). */
export async function setGrantId(db: Db, connectionId: string, grantId: string): Promise<void> {
  await db.update(oauthConnections).set({ grantId }).where(eq(oauthConnections.id, connectionId));
}

/** A connection that was never completed (the authorization failed after its row was written). */
export async function deleteConnection(db: Db, connectionId: string): Promise<void> {
  await db.delete(oauthConnections).where(eq(oauthConnections.id, connectionId));
}

/** The user's connection if it is still live (not revoked), with the user as a caller; else null. */
export async function liveConnection(db: Db, userId: string, connectionId: string): Promise<{ connection: OAuthConnectionRow; user: Caller } | null> {
  const found = await db
    .select({ connection: oauthConnections, user: callerColumns })
    .from(oauthConnections)
    .innerJoin(users, eq(users.id, oauthConnections.userId))
    .where(and(eq(oauthConnections.id, connectionId), eq(oauthConnections.userId, userId), isNull(oauthConnections.revokedAt)))
    .get();
  return found ?? null;
}

/** When it was last used, at most once a minute per connection (a write per MCP request would be waste). */
export async function touchConnection(db: Db, row: OAuthConnectionRow): Promise<void> {
  const now = nowIso();
  if (row.lastUsedAt && Date.parse(now) - Date.parse(row.lastUsedAt) < MINUTE) return;
  await db.update(oauthConnections).set({ lastUsedAt: now }).where(eq(oauthConnections.id, row.id));
}

async function usageOf(db: Db, connectionIds: string[]): Promise<Map<string, ConnectionUsage>> {
  const usage = new Map<string, ConnectionUsage>(connectionIds.map((id) => [id, { spent: 0, reserved: 0 }]));
  if (connectionIds.length === 0) return usage;
  const staleBefore = new Date(Date.now() - STALE_HOLD_MS).toISOString();
  const rows = await db.all<{ connection_id: string; spent: number; reserved: number }>(sql`
    select cj.connection_id,
      coalesce(sum(case when j.status in ('succeeded', 'failed', 'cancelled') then j.credits_charged else 0 end), 0) as spent,
      coalesce(sum(case
        when cj.job_id is null then case when cj.created_at > ${staleBefore} then cj.reserved else 0 end
        when j.status in ('succeeded', 'failed', 'cancelled') then 0
        else j.credits_reserved end), 0) as reserved
    from oauth_connection_jobs cj left join research_jobs j on j.id = cj.job_id
    where cj.connection_id in (${sql.join(
      connectionIds.map((id) => sql`${id}`),
      sql`, `,
    )})
    group by cj.connection_id`);
  for (const row of rows) usage.set(row.connection_id, { spent: Number(row.spent), reserved: Number(row.reserved) });
  return usage;
}

/** The user's connections, newest first, with what each has spent and holds. Revoked ones too (they say so). */
export async function listConnections(db: Db, userId: string): Promise<Connection[]> {
  const rows = await db.select().from(oauthConnections).where(eq(oauthConnections.userId, userId)).orderBy(desc(oauthConnections.createdAt));
  const usage = await usageOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, ...(usage.get(row.id) ?? { spent: 0, reserved: 0 }) }));
}

/** One of the user's connections with its usage, or null (another account's is null too). */
export async function findConnection(db: Db, userId: string, connectionId: string): Promise<Connection | null> {
  const row = await db.query.oauthConnections.findFirst({ where: and(eq(oauthConnections.id, connectionId), eq(oauthConnections.userId, userId)) });
  if (!row) return null;
  const usage = await usageOf(db, [row.id]);
  return { ...row, ...(usage.get(row.id) ?? { spent: 0, reserved: 0 }) };
}

/** Mark the user's connection revoked (its tokens are refused from the next request); null when it is not theirs. A repeat keeps the first time. */
export async function markRevoked(db: Db, userId: string, connectionId: string): Promise<OAuthConnectionRow | null> {
  const row = await db.query.oauthConnections.findFirst({ where: and(eq(oauthConnections.id, connectionId), eq(oauthConnections.userId, userId)) });
  if (!row) return null;
  if (row.revokedAt) return row;
  const revokedAt = nowIso();
  await db
    .update(oauthConnections)
    .set({ revokedAt })
    .where(and(eq(oauthConnections.id, connectionId), isNull(oauthConnections.revokedAt)));
  return { ...row, revokedAt };
}

/**
 * Hold `credits` of the connection's cap for a submit about to be made: the hold's id, or null
 * when what the connection holds already plus `credits` would pass its cap (or it was revoked).
 * One statement, so concurrent holds are judged one after the other.
 */
export async function holdCredits(db: Db, connectionId: string, credits: number): Promise<string | null> {
  const id = `hold_${randomBase62(24)}`;
  const now = nowIso();
  const staleBefore = new Date(Date.now() - STALE_HOLD_MS).toISOString();
  const result = await db.run(sql`
    insert into oauth_connection_jobs (id, connection_id, job_id, reserved, created_at)
    select ${id}, c.id, null, ${credits}, ${now} from oauth_connections c
    where c.id = ${connectionId} and c.revoked_at is null
      and ${heldCreditsSql(connectionId, staleBefore)} + ${credits} <= c.credit_cap`);
  return result.meta.changes === 1 ? id : null;
}

/**
 * The submit made: the hold becomes the job's (which then counts its own reservation, then its
 * charge). A job the connection already holds (an Idempotency-Key repeat) needs no second hold.
 */
export async function attachJob(db: Db, holdId: string, jobId: string): Promise<void> {
  const existing = await db.query.oauthConnectionJobs.findFirst({ where: eq(oauthConnectionJobs.jobId, jobId) });
  if (existing) {
    await releaseHold(db, holdId);
    return;
  }
  await db.update(oauthConnectionJobs).set({ jobId }).where(eq(oauthConnectionJobs.id, holdId));
}

/** The submit was refused (or failed): its hold goes, nothing was reserved. */
export async function releaseHold(db: Db, holdId: string): Promise<void> {
  await db.delete(oauthConnectionJobs).where(and(eq(oauthConnectionJobs.id, holdId), isNull(oauthConnectionJobs.jobId)));
}

/** Whether the job was started through this connection (what its token may read or cancel). */
export async function isConnectionJob(db: Db, connectionId: string, jobId: string): Promise<boolean> {
  const row = await db.query.oauthConnectionJobs.findFirst({
    where: and(eq(oauthConnectionJobs.connectionId, connectionId), eq(oauthConnectionJobs.jobId, jobId)),
    columns: { id: true },
  });
  return row !== undefined;
}

/** The ids of the jobs the connection started, newest first. */
export async function connectionJobIds(db: Db, connectionId: string): Promise<string[]> {
  const rows = await db
    .select({ jobId: oauthConnectionJobs.jobId })
    .from(oauthConnectionJobs)
    .where(and(eq(oauthConnectionJobs.connectionId, connectionId), sql`${oauthConnectionJobs.jobId} is not null`))
    .orderBy(desc(oauthConnectionJobs.createdAt));
  return rows.flatMap((row) => (row.jobId ? [row.jobId] : []));
}

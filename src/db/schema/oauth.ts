import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { researchJobs } from "./jobs";
import { users } from "./users";

/**
 * An agent connected over OAuth (MCP): one row per consent the customer gave on the dashboard,
 * beside the grant @cloudflare/workers-oauth-provider keeps in KV (its tokens, hashed). This row
 * is what the dashboard lists and revokes and what bounds the connection's spending: research
 * through it may charge at most `creditCap` credits in all. A revoked row refuses its tokens at
 * once, whatever KV still holds.
 */
export const oauthConnections = sqliteTable(
  "oauth_connections",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The library's grant (its KV record), set once the authorization completed. */
    grantId: text("grant_id"),
    clientId: text("client_id").notNull(),
    /** As the client registered it (self-asserted), at the time of consent. */
    clientName: text("client_name").notNull(),
    redirectUri: text("redirect_uri").notNull(),
    /** Space-separated scopes consented to (only `research` exists). */
    scope: text("scope").notNull(),
    /** The most the connection's research may charge, in credits, over its whole life. */
    creditCap: integer("credit_cap").notNull(),
    createdAt: text("created_at").notNull(),
    lastUsedAt: text("last_used_at"),
    revokedAt: text("revoked_at"),
  },
  (t) => [index("oauth_connections_user_idx").on(t.userId, t.createdAt)],
);

/**
 * What a connection's research holds against its cap: one row per job it started (`jobId`), or
 * per submit still under way (`jobId` null: its reservation is held until the job exists, so two
 * concurrent submits cannot both pass the cap). A job still open counts its reservation, a
 * finished one what it was charged (research_jobs).
 */
export const oauthConnectionJobs = sqliteTable(
  "oauth_connection_jobs",
  {
    id: text("id").primaryKey(),
    connectionId: text("connection_id")
      .notNull()
      .references(() => oauthConnections.id, { onDelete: "cascade" }),
    jobId: text("job_id")
      .unique()
      .references(() => researchJobs.id, { onDelete: "cascade" }),
    /** Credits reserved at submit (the mode's price, or a max job's max_credits). */
    reserved: integer("reserved").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("oauth_connection_jobs_connection_idx").on(t.connectionId, t.createdAt)],
);

export type OAuthConnectionRow = typeof oauthConnections.$inferSelect;

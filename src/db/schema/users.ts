import { getTableColumns, sql } from "drizzle-orm";
import { check, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    /** Always stored lower-cased and trimmed; unique. */
    email: text("email").notNull().unique(),
    /** `pbkdf2-sha256$<iterations>$<salt>$<hash>`; null for accounts that have no password. */
    passwordHash: text("password_hash"),
    firstName: text("first_name").notNull().default(""),
    lastName: text("last_name").notNull().default(""),
    emailVerified: integer("email_verified", { mode: "boolean" }).notNull().default(false),
    marketingEmailsEnabled: integer("marketing_emails_enabled", { mode: "boolean" }).notNull().default(false),
    isAdmin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
    /** The credit balance; only the ledger service changes it, in step with ledger_entries. */
    credits: integer("credits").notNull().default(0),
    suspendedAt: text("suspended_at"),
    processorCustomerId: text("processor_customer_id"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  // Last line of defence: even a buggy write cannot take a balance below zero.
  (t) => [check("users_credits_non_negative", sql`${t.credits} >= 0`)],
);

export type UserRow = typeof users.$inferSelect;

/**
 * Who is calling: the user row without its balance. An identity may be held for a few seconds
 * (services/verified-keys.ts), a balance never: read it with getBalance (services/ledger.ts).
 */
export type Caller = Omit<UserRow, "credits">;

/** The columns of a Caller, for a select: every column of users but the balance. */
const { credits: _balance, ...callerColumnsOfUsers } = getTableColumns(users);
export const callerColumns = callerColumnsOfUsers;

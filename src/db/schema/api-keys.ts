import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/** API keys for /v1. Only the SHA-256 of the key is stored; `prefix` is for display. */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name"),
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull().unique(),
    createdAt: text("created_at").notNull(),
    lastUsedAt: text("last_used_at"),
    revokedAt: text("revoked_at"),
  },
  (t) => [index("api_keys_user_idx").on(t.userId)],
);

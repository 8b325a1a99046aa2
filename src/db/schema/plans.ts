import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/**
 * A reviewable research plan (issue 45): what `POST /v1/research/plan` computed for a request,
 * kept until `expires_at` so that `POST /v1/research` with its `plan_id` runs exactly that plan
 * (its sub-questions and first searches, or the customer's edits of them). Scoped to its owner.
 * `used_by_job_id` is set when a submit takes it: a plan runs once (docs/decisions.md).
 */
export const researchPlans = sqliteTable(
  "research_plans",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    question: text("question").notNull(),
    mode: text("mode").notNull(),
    /** The submit body the plan was made for (JSON, as validated). */
    requestJson: text("request_json").notNull(),
    /** The planned sub-questions (JSON array of strings; empty when the offline engine plans). */
    subQuestionsJson: text("sub_questions_json").notNull(),
    /** Wave 1's searches (JSON array of strings). */
    queriesJson: text("queries_json").notNull(),
    /** Who planned: `engine` (offline) or `model`. */
    planner: text("planner", { enum: ["engine", "model"] }).notNull(),
    /** What the model's plan call cost the service, in millionths of a USD; 0 offline. Not charged to the caller. */
    costMicroUsd: integer("cost_micro_usd").notNull().default(0),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    /** The job that ran it; null until a submit takes it (then it cannot run again). */
    usedByJobId: text("used_by_job_id"),
  },
  (t) => [index("research_plans_user_created_idx").on(t.userId, t.createdAt), index("research_plans_expires_idx").on(t.expiresAt)],
);

export type ResearchPlanRow = typeof researchPlans.$inferSelect;

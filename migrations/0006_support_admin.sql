CREATE TABLE `ticket_replies` (
	`id` text PRIMARY KEY NOT NULL,
	`ticket_id` text NOT NULL,
	`admin_id` text,
	`body` text NOT NULL,
	`sent_email` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ticket_replies_ticket_idx` ON `ticket_replies` (`ticket_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `tickets` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`email` text NOT NULL,
	`category` text NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`assigned_admin_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `tickets_user_created_idx` ON `tickets` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `tickets_status_created_idx` ON `tickets` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `tickets_created_idx` ON `tickets` (`created_at`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`admin_id` text NOT NULL,
	`admin_email` text,
	`action` text NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text,
	`details` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `audit_log_id_unique` ON `audit_log` (`id`);--> statement-breakpoint
CREATE INDEX `audit_log_target_idx` ON `audit_log` (`target_type`,`target_id`);--> statement-breakpoint
CREATE INDEX `audit_log_admin_idx` ON `audit_log` (`admin_id`);--> statement-breakpoint
-- Admin refunds of a job can never add up to more than the job's charge, however many arrive at
-- once: SQLite serialises writes and this check runs inside the inserting transaction (the D1
-- batch of the ledger change), so the sum it reads cannot change under it. A resubmit whose
-- idempotency key already exists is left to the insert's ON CONFLICT DO NOTHING (a duplicate, not
-- an error). Written by hand: drizzle-kit does not generate triggers.
CREATE TRIGGER `ledger_refund_within_charge` BEFORE INSERT ON `ledger_entries`
WHEN new.`kind` = 'refund' AND new.`related_id` IS NOT NULL
  AND NOT EXISTS (
    SELECT 1 FROM `ledger_entries` e WHERE e.`user_id` = new.`user_id` AND e.`idempotency_key` = new.`idempotency_key`
  )
  AND (SELECT coalesce(sum(e.`delta`), 0) FROM `ledger_entries` e WHERE e.`kind` = 'refund' AND e.`related_id` = new.`related_id`) + new.`delta`
    > (SELECT j.`credits_charged` FROM `research_jobs` j WHERE j.`id` = new.`related_id`)
BEGIN
  SELECT RAISE(ABORT, 'refund_exceeds_charge');
END;

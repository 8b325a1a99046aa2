-- Lifecycle webhooks (issue 30): several deliveries per job, keyed by their delivery id (the
-- existing rows keep the job id, what their attempts already sent as X-Service-Delivery).
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_webhook_outbox` (
	`delivery_id` text PRIMARY KEY NOT NULL,
	`job_id` text NOT NULL,
	`event` text DEFAULT 'research.completed' NOT NULL,
	`body` text,
	`state` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `research_jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_webhook_outbox`("delivery_id", "job_id", "event", "body", "state", "attempts", "next_attempt_at", "updated_at") SELECT "job_id", "job_id", 'research.completed', NULL, "state", "attempts", "next_attempt_at", "updated_at" FROM `webhook_outbox`;--> statement-breakpoint
DROP TABLE `webhook_outbox`;--> statement-breakpoint
ALTER TABLE `__new_webhook_outbox` RENAME TO `webhook_outbox`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `webhook_outbox_due_idx` ON `webhook_outbox` (`state`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_outbox_job_idx` ON `webhook_outbox` (`job_id`);--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `event` text DEFAULT 'research.completed' NOT NULL;
ALTER TABLE `outbox_emails` ADD `attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `outbox_emails` ADD `next_attempt_at` text;--> statement-breakpoint
CREATE INDEX `outbox_emails_retry_idx` ON `outbox_emails` (`delivery_status`,`next_attempt_at`);
ALTER TABLE `overage_reports` ADD `attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `overage_reports` ADD `next_attempt_at` text;--> statement-breakpoint
ALTER TABLE `overage_reports` ADD `in_doubt` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `overage_reports_status_idx` ON `overage_reports` (`status`,`next_attempt_at`);--> statement-breakpoint
-- Reports that failed before retries existed: how they failed is unknown, so they count as in doubt (retried only inside the identifier's 24 h de-duplication).
UPDATE `overage_reports` SET `attempts` = 1, `in_doubt` = 1 WHERE `status` = 'failed';

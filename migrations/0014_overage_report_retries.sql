ALTER TABLE `overage_reports` ADD `attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `overage_reports` ADD `next_attempt_at` text;--> statement-breakpoint
ALTER TABLE `overage_reports` ADD `in_doubt` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `overage_reports_status_idx` ON `overage_reports` (`status`,`next_attempt_at`);
CREATE TABLE `monitor_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`monitor_id` text NOT NULL,
	`user_id` text NOT NULL,
	`job_id` text NOT NULL,
	`trigger` text NOT NULL,
	`status` text NOT NULL,
	`credits_charged` integer,
	`snapshot_json` text,
	`diff_json` text,
	`changed` integer,
	`previous_run_id` text,
	`webhook_url` text,
	`created_at` text NOT NULL,
	`finished_at` text,
	FOREIGN KEY (`monitor_id`) REFERENCES `monitors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `monitor_runs_monitor_created_idx` ON `monitor_runs` (`monitor_id`,`created_at`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `monitor_runs_job_idx` ON `monitor_runs` (`job_id`);--> statement-breakpoint
CREATE INDEX `monitor_runs_status_idx` ON `monitor_runs` (`status`);--> statement-breakpoint
CREATE TABLE `monitors` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`api_key_id` text,
	`question` text NOT NULL,
	`mode` text NOT NULL,
	`request_json` text NOT NULL,
	`every_secs` integer,
	`cron` text,
	`webhook_url` text,
	`max_credits_per_run` integer,
	`status` text NOT NULL,
	`paused_reason` text,
	`next_run_at` text,
	`last_run_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `monitors_user_created_idx` ON `monitors` (`user_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `monitors_due_idx` ON `monitors` (`status`,`next_run_at`);
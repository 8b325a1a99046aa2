CREATE TABLE `research_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`origin` text NOT NULL,
	`api_key_id` text,
	`status` text NOT NULL,
	`mode` text NOT NULL,
	`question` text NOT NULL,
	`request_json` text NOT NULL,
	`result_json` text,
	`credits_reserved` integer NOT NULL,
	`credits_charged` integer DEFAULT 0 NOT NULL,
	`cost_usd_micros` integer DEFAULT 0 NOT NULL,
	`error` text,
	`latency_ms` integer,
	`source_count` integer,
	`wave_count` integer,
	`webhook_url` text,
	`idempotency_key` text,
	`request_hash` text,
	`idempotency_expires_at` text,
	`created_at` text NOT NULL,
	`started_at` text,
	`completed_at` text,
	`deadline_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `research_jobs_user_created_idx` ON `research_jobs` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `research_jobs_status_deadline_idx` ON `research_jobs` (`status`,`deadline_at`);--> statement-breakpoint
CREATE INDEX `research_jobs_created_idx` ON `research_jobs` (`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `research_jobs_user_idem_idx` ON `research_jobs` (`user_id`,`idempotency_key`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`job_id` text NOT NULL,
	`delivery_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`status_code` integer,
	`error` text,
	`duration_ms` integer NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `research_jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_job_idx` ON `webhook_deliveries` (`job_id`,`attempt`);--> statement-breakpoint
CREATE TABLE `webhook_secrets` (
	`user_id` text PRIMARY KEY NOT NULL,
	`secret` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);

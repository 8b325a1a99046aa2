CREATE TABLE `oauth_connection_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`connection_id` text NOT NULL,
	`job_id` text,
	`reserved` integer NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`connection_id`) REFERENCES `oauth_connections`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`job_id`) REFERENCES `research_jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `oauth_connection_jobs_job_id_unique` ON `oauth_connection_jobs` (`job_id`);--> statement-breakpoint
CREATE INDEX `oauth_connection_jobs_connection_idx` ON `oauth_connection_jobs` (`connection_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `oauth_connections` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`grant_id` text,
	`client_id` text NOT NULL,
	`client_name` text NOT NULL,
	`redirect_uri` text NOT NULL,
	`scope` text NOT NULL,
	`credit_cap` integer NOT NULL,
	`created_at` text NOT NULL,
	`last_used_at` text,
	`revoked_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `oauth_connections_user_idx` ON `oauth_connections` (`user_id`,`created_at`);
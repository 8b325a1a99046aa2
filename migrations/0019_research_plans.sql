CREATE TABLE `research_plans` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`question` text NOT NULL,
	`mode` text NOT NULL,
	`request_json` text NOT NULL,
	`sub_questions_json` text NOT NULL,
	`queries_json` text NOT NULL,
	`planner` text NOT NULL,
	`cost_micro_usd` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_by_job_id` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `research_plans_user_created_idx` ON `research_plans` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `research_plans_expires_idx` ON `research_plans` (`expires_at`);
DROP INDEX `research_jobs_user_created_idx`;--> statement-breakpoint
DROP INDEX `research_jobs_created_idx`;--> statement-breakpoint
CREATE INDEX `research_jobs_user_list_idx` ON `research_jobs` (`user_id`,`created_at`,`id`,`credits_charged`,`cost_usd_micros`,`latency_ms`,`source_count`,`wave_count`,`completed_at`);--> statement-breakpoint
CREATE INDEX `research_jobs_list_idx` ON `research_jobs` (`created_at`,`id`,`credits_charged`,`cost_usd_micros`,`latency_ms`,`source_count`,`wave_count`,`completed_at`);
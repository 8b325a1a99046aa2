DROP INDEX `research_jobs_user_list_idx`;--> statement-breakpoint
ALTER TABLE `research_jobs` ADD `previous_job_id` text;--> statement-breakpoint
ALTER TABLE `research_jobs` ADD `plan_id` text;--> statement-breakpoint
ALTER TABLE `research_jobs` ADD `monitor_id` text;--> statement-breakpoint
CREATE INDEX `research_jobs_user_list_idx` ON `research_jobs` (`user_id`,`created_at`,`id`,`credits_charged`,`cost_usd_micros`,`latency_ms`,`source_count`,`wave_count`,`completed_at`,`previous_job_id`,`plan_id`,`monitor_id`);--> statement-breakpoint
ALTER TABLE `usage_daily` ADD `plans` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `usage_daily` ADD `monitor_runs` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Plans made and monitor runs started, per account and UTC day, beside the jobs (GET
-- /api/dashboard/usage). Counted on insert only: the count is a history, so a plan or monitor
-- deleted later (a monitor's runs go with it) leaves its day as it was.
CREATE TRIGGER `research_plans_usage_insert` AFTER INSERT ON `research_plans` BEGIN
  INSERT OR IGNORE INTO `usage_daily` (`user_id`, `day`) VALUES (NEW.`user_id`, substr(NEW.`created_at`, 1, 10));
  UPDATE `usage_daily` SET `plans` = `plans` + 1 WHERE `user_id` = NEW.`user_id` AND `day` = substr(NEW.`created_at`, 1, 10);
END;
--> statement-breakpoint
CREATE TRIGGER `monitor_runs_usage_insert` AFTER INSERT ON `monitor_runs` BEGIN
  INSERT OR IGNORE INTO `usage_daily` (`user_id`, `day`) VALUES (NEW.`user_id`, substr(NEW.`created_at`, 1, 10));
  UPDATE `usage_daily` SET `monitor_runs` = `monitor_runs` + 1 WHERE `user_id` = NEW.`user_id` AND `day` = substr(NEW.`created_at`, 1, 10);
END;
--> statement-breakpoint
-- The plans and runs already there.
INSERT OR IGNORE INTO `usage_daily` (`user_id`, `day`) SELECT DISTINCT `user_id`, substr(`created_at`, 1, 10) FROM `research_plans`;
--> statement-breakpoint
INSERT OR IGNORE INTO `usage_daily` (`user_id`, `day`) SELECT DISTINCT `user_id`, substr(`created_at`, 1, 10) FROM `monitor_runs`;
--> statement-breakpoint
UPDATE `usage_daily` SET `plans` = c.`n`
  FROM (SELECT `user_id`, substr(`created_at`, 1, 10) AS `day`, count(*) AS `n` FROM `research_plans` GROUP BY 1, 2) AS c
  WHERE `usage_daily`.`user_id` = c.`user_id` AND `usage_daily`.`day` = c.`day`;
--> statement-breakpoint
UPDATE `usage_daily` SET `monitor_runs` = c.`n`
  FROM (SELECT `user_id`, substr(`created_at`, 1, 10) AS `day`, count(*) AS `n` FROM `monitor_runs` GROUP BY 1, 2) AS c
  WHERE `usage_daily`.`user_id` = c.`user_id` AND `usage_daily`.`day` = c.`day`;

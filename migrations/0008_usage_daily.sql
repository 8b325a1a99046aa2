CREATE TABLE `usage_daily` (
	`user_id` text NOT NULL,
	`day` text NOT NULL,
	`jobs` integer DEFAULT 0 NOT NULL,
	`credits` integer DEFAULT 0 NOT NULL,
	`cost_usd_micros` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `day`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- The rollup is kept by triggers: every insert, update and delete of a job moves its day, in the
-- same statement, whichever code path wrote it (submit, settlement, the sweep, account deletion).
CREATE TRIGGER `research_jobs_usage_insert` AFTER INSERT ON `research_jobs` BEGIN
  INSERT OR IGNORE INTO `usage_daily` (`user_id`, `day`) VALUES (NEW.`user_id`, substr(NEW.`created_at`, 1, 10));
  UPDATE `usage_daily` SET `jobs` = `jobs` + 1, `credits` = `credits` + NEW.`credits_charged`, `cost_usd_micros` = `cost_usd_micros` + NEW.`cost_usd_micros`
    WHERE `user_id` = NEW.`user_id` AND `day` = substr(NEW.`created_at`, 1, 10);
END;
--> statement-breakpoint
CREATE TRIGGER `research_jobs_usage_update` AFTER UPDATE OF `user_id`, `created_at`, `credits_charged`, `cost_usd_micros` ON `research_jobs` BEGIN
  UPDATE `usage_daily` SET `jobs` = `jobs` - 1, `credits` = `credits` - OLD.`credits_charged`, `cost_usd_micros` = `cost_usd_micros` - OLD.`cost_usd_micros`
    WHERE `user_id` = OLD.`user_id` AND `day` = substr(OLD.`created_at`, 1, 10);
  INSERT OR IGNORE INTO `usage_daily` (`user_id`, `day`) VALUES (NEW.`user_id`, substr(NEW.`created_at`, 1, 10));
  UPDATE `usage_daily` SET `jobs` = `jobs` + 1, `credits` = `credits` + NEW.`credits_charged`, `cost_usd_micros` = `cost_usd_micros` + NEW.`cost_usd_micros`
    WHERE `user_id` = NEW.`user_id` AND `day` = substr(NEW.`created_at`, 1, 10);
END;
--> statement-breakpoint
CREATE TRIGGER `research_jobs_usage_delete` AFTER DELETE ON `research_jobs` BEGIN
  UPDATE `usage_daily` SET `jobs` = `jobs` - 1, `credits` = `credits` - OLD.`credits_charged`, `cost_usd_micros` = `cost_usd_micros` - OLD.`cost_usd_micros`
    WHERE `user_id` = OLD.`user_id` AND `day` = substr(OLD.`created_at`, 1, 10);
END;
--> statement-breakpoint
-- The jobs already there.
INSERT INTO `usage_daily` (`user_id`, `day`, `jobs`, `credits`, `cost_usd_micros`)
  SELECT `user_id`, substr(`created_at`, 1, 10), count(*), sum(`credits_charged`), sum(`cost_usd_micros`) FROM `research_jobs` GROUP BY 1, 2;

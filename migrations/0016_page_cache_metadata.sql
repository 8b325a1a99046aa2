ALTER TABLE `page_cache` ADD `published_at` text;--> statement-breakpoint
ALTER TABLE `page_cache` ADD `author` text;
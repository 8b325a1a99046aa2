CREATE TABLE `corpus_documents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`url` text NOT NULL,
	`title` text NOT NULL,
	`domain` text NOT NULL,
	`text` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `corpus_documents_url_unique` ON `corpus_documents` (`url`);--> statement-breakpoint
CREATE INDEX `corpus_documents_domain_idx` ON `corpus_documents` (`domain`);--> statement-breakpoint
CREATE TABLE `page_cache` (
	`url` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`title` text NOT NULL,
	`text` text NOT NULL,
	`content_type` text,
	`error` text,
	`fetched_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `page_cache_fetched_idx` ON `page_cache` (`fetched_at`);
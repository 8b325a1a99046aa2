CREATE TABLE `ingest_charges` (
	`ledger_entry_id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`collection_id` text NOT NULL,
	`idempotency_key` text,
	`request_hash` text NOT NULL,
	`credits` integer NOT NULL,
	`bytes` integer NOT NULL,
	`result_json` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ingest_charges_user_idem_idx` ON `ingest_charges` (`user_id`,`idempotency_key`);
CREATE TABLE `auto_topups` (
	`user_id` text PRIMARY KEY NOT NULL,
	`enabled` integer NOT NULL,
	`threshold_credits` integer NOT NULL,
	`pack_id` text NOT NULL,
	`in_flight_payment_id` text,
	`in_flight_since` text,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `overage_reports` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`ledger_entry_id` text NOT NULL,
	`credits` integer NOT NULL,
	`status` text NOT NULL,
	`error` text,
	`created_at` text NOT NULL,
	`reported_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `overage_reports_entry_idx` ON `overage_reports` (`ledger_entry_id`);--> statement-breakpoint
CREATE INDEX `overage_reports_user_idx` ON `overage_reports` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `packs` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`credits` integer NOT NULL,
	`price_cents` integer NOT NULL,
	`blurb` text NOT NULL,
	`processor_price_env` text NOT NULL,
	`sort_order` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `payments` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`pack_id` text,
	`plan_id` text,
	`pack_credits` integer NOT NULL,
	`pack_amount_cents` integer NOT NULL,
	`processor_session_id` text,
	`processor_payment_intent_id` text,
	`processor_invoice_id` text,
	`refunded_credits` integer DEFAULT 0 NOT NULL,
	`refund_shortfall_credits` integer DEFAULT 0 NOT NULL,
	`error` text,
	`created_at` text NOT NULL,
	`completed_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payments_processor_session_id_unique` ON `payments` (`processor_session_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `payments_processor_payment_intent_id_unique` ON `payments` (`processor_payment_intent_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `payments_processor_invoice_id_unique` ON `payments` (`processor_invoice_id`);--> statement-breakpoint
CREATE INDEX `payments_user_created_idx` ON `payments` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `plans` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`monthly_price_cents` integer NOT NULL,
	`included_credits` integer NOT NULL,
	`overage_micros` integer NOT NULL,
	`breakeven_credits` integer NOT NULL,
	`blurb` text NOT NULL,
	`features` text NOT NULL,
	`processor_price_env` text,
	`processor_overage_price_env` text,
	`sort_order` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `processor_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`received_at` text NOT NULL,
	`body` text,
	`status` text DEFAULT 'received' NOT NULL,
	`error` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`processed_at` text
);
--> statement-breakpoint
CREATE INDEX `processor_events_received_idx` ON `processor_events` (`received_at`);--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`user_id` text PRIMARY KEY NOT NULL,
	`plan_id` text NOT NULL,
	`status` text NOT NULL,
	`processor_subscription_id` text,
	`current_period_start` text,
	`current_period_end` text,
	`processor_event_created` integer DEFAULT 0 NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subscriptions_processor_subscription_id_unique` ON `subscriptions` (`processor_subscription_id`);
CREATE TABLE `collection_chunks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`document_id` text NOT NULL,
	`collection_id` text NOT NULL,
	`position` integer NOT NULL,
	`title` text NOT NULL,
	`text` text NOT NULL,
	FOREIGN KEY (`document_id`) REFERENCES `collection_documents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `collection_chunks_document_idx` ON `collection_chunks` (`document_id`);--> statement-breakpoint
CREATE INDEX `collection_chunks_collection_idx` ON `collection_chunks` (`collection_id`);--> statement-breakpoint
CREATE TABLE `collection_documents` (
	`id` text PRIMARY KEY NOT NULL,
	`collection_id` text NOT NULL,
	`user_id` text NOT NULL,
	`key` text NOT NULL,
	`url` text,
	`title` text NOT NULL,
	`metadata_json` text,
	`text` text NOT NULL,
	`bytes` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`collection_id`) REFERENCES `collections`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `collection_documents_key_idx` ON `collection_documents` (`collection_id`,`key`);--> statement-breakpoint
CREATE INDEX `collection_documents_list_idx` ON `collection_documents` (`collection_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `collections` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`document_count` integer DEFAULT 0 NOT NULL,
	`bytes` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `collections_user_created_idx` ON `collections` (`user_id`,`created_at`,`id`);--> statement-breakpoint
-- Full-text index of the chunks, as corpus_fts is of the corpus (bm25 with the title weighted).
CREATE VIRTUAL TABLE `collection_fts` USING fts5(
	`title`,
	`text`,
	content='collection_chunks',
	content_rowid='id',
	tokenize='porter unicode61 remove_diacritics 2'
);
--> statement-breakpoint
CREATE TRIGGER `collection_chunks_ai` AFTER INSERT ON `collection_chunks` BEGIN
	INSERT INTO `collection_fts`(rowid, `title`, `text`) VALUES (new.`id`, new.`title`, new.`text`);
END;
--> statement-breakpoint
CREATE TRIGGER `collection_chunks_ad` AFTER DELETE ON `collection_chunks` BEGIN
	INSERT INTO `collection_fts`(`collection_fts`, rowid, `title`, `text`) VALUES ('delete', old.`id`, old.`title`, old.`text`);
END;
--> statement-breakpoint
-- A collection's document count and bytes follow its documents, whichever path writes them.
CREATE TRIGGER `collection_documents_count_ai` AFTER INSERT ON `collection_documents` BEGIN
	UPDATE `collections` SET `document_count` = `document_count` + 1, `bytes` = `bytes` + new.`bytes` WHERE `id` = new.`collection_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `collection_documents_count_au` AFTER UPDATE OF `bytes` ON `collection_documents` BEGIN
	UPDATE `collections` SET `bytes` = `bytes` - old.`bytes` + new.`bytes` WHERE `id` = new.`collection_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `collection_documents_count_ad` AFTER DELETE ON `collection_documents` BEGIN
	UPDATE `collections` SET `document_count` = `document_count` - 1, `bytes` = `bytes` - old.`bytes` WHERE `id` = old.`collection_id`;
END;

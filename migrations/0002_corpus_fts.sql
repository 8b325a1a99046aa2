-- Full-text index of the local corpus, ranked with bm25() at query time (title weighted above body).
-- External-content FTS5 table over corpus_documents, kept in sync by the triggers below.
-- Porter stemming + diacritic folding, so "tariffs" finds "tariff" and "Colisee" finds "Colisée".
CREATE VIRTUAL TABLE `corpus_fts` USING fts5(
	`title`,
	`text`,
	content='corpus_documents',
	content_rowid='id',
	tokenize='porter unicode61 remove_diacritics 2'
);
--> statement-breakpoint
CREATE TRIGGER `corpus_documents_ai` AFTER INSERT ON `corpus_documents` BEGIN
	INSERT INTO `corpus_fts`(rowid, `title`, `text`) VALUES (new.`id`, new.`title`, new.`text`);
END;
--> statement-breakpoint
CREATE TRIGGER `corpus_documents_ad` AFTER DELETE ON `corpus_documents` BEGIN
	INSERT INTO `corpus_fts`(`corpus_fts`, rowid, `title`, `text`) VALUES ('delete', old.`id`, old.`title`, old.`text`);
END;
--> statement-breakpoint
CREATE TRIGGER `corpus_documents_au` AFTER UPDATE ON `corpus_documents` BEGIN
	INSERT INTO `corpus_fts`(`corpus_fts`, rowid, `title`, `text`) VALUES ('delete', old.`id`, old.`title`, old.`text`);
	INSERT INTO `corpus_fts`(rowid, `title`, `text`) VALUES (new.`id`, new.`title`, new.`text`);
END;

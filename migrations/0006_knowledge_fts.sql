-- Keyword search over text nodes and FAQs. The indexed column holds the terms of the text as the
-- service tokenizes them (src/services/retrieval/terms.ts): lower-cased words, and for Chinese and
-- Japanese each character plus each pair of neighbouring characters, since those scripts have no
-- spaces to split on. `kb` holds one token naming the knowledge base (`k` + its id without dashes),
-- so a search is limited to one base inside the index. The service writes these rows in the same
-- batch as the text node or FAQ;
-- the triggers remove them with their row (also on cascading deletes of a file or knowledge base).
-- drizzle-kit does not model virtual tables or triggers: this file is their only definition.
CREATE VIRTUAL TABLE `text_nodes_fts` USING fts5(`terms`, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE VIRTUAL TABLE `faqs_fts` USING fts5(`terms`, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `text_nodes_fts_delete` AFTER DELETE ON `text_nodes` BEGIN
	DELETE FROM `text_nodes_fts` WHERE `rowid` = OLD.rowid;
END;
--> statement-breakpoint
CREATE TRIGGER `faqs_fts_delete` AFTER DELETE ON `faqs` BEGIN
	DELETE FROM `faqs_fts` WHERE `rowid` = OLD.rowid;
END;
--> statement-breakpoint
-- The local embedding model hashes features into 256 dimensions (src/services/embeddings/local.ts).
UPDATE `models` SET `dimensions` = 256 WHERE `id` = '00000000-0000-7000-8000-000000000002';

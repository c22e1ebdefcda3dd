-- Full-text search over messages (GET /conversations/?keyword=). The trigram tokenizer matches any
-- substring of 3 or more characters, case-insensitively and in any script (Chinese needs no word
-- breaks); the list matches shorter words with LIKE. Contentless (`content=''`): the text already
-- lives in messages.content, so the index keeps only its trigrams, keyed by the message's rowid
-- (the search joins back to messages by rowid); `contentless_delete=1` lets the triggers delete and
-- replace a message's entry without the old text. Empty messages (attachments only) are not indexed.
-- Private notes are indexed like any message: the search is the team's, over the team's own text.
-- drizzle-kit does not model virtual tables or triggers: this file is their only definition.
CREATE VIRTUAL TABLE `messages_fts` USING fts5(`content`, content = '', contentless_delete = 1, tokenize = 'trigram');
--> statement-breakpoint
CREATE TRIGGER `messages_fts_insert` AFTER INSERT ON `messages` WHEN NEW.content <> '' BEGIN
	INSERT INTO `messages_fts` (`rowid`, `content`) VALUES (NEW.rowid, NEW.content);
END;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_update` AFTER UPDATE OF `content` ON `messages` BEGIN
	DELETE FROM `messages_fts` WHERE `rowid` = OLD.rowid;
	INSERT INTO `messages_fts` (`rowid`, `content`) SELECT NEW.rowid, NEW.content WHERE NEW.content <> '';
END;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_delete` AFTER DELETE ON `messages` BEGIN
	DELETE FROM `messages_fts` WHERE `rowid` = OLD.rowid;
END;
--> statement-breakpoint
INSERT INTO `messages_fts` (`rowid`, `content`) SELECT m.rowid, m.content FROM `messages` AS m WHERE m.content <> '';

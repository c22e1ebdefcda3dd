-- Full-text search over contacts (GET /contacts/?search=): name, e-mail, phone number, source id and
-- the leaf values of the custom metadata. The trigram tokenizer matches any substring of 3 or more
-- characters, case-insensitively and in any script (Chinese needs no word breaks); the route matches
-- shorter words with LIKE. The index keeps its own copy of the text, because the metadata values
-- are not a column of contacts, and is keyed by the contact's rowid so triggers find its row at once.
-- drizzle-kit does not model virtual tables or triggers: this file is their only definition.
CREATE VIRTUAL TABLE `contacts_fts` USING fts5(
	`contact_id` UNINDEXED,
	`name`,
	`email`,
	`phone_number`,
	`source_id`,
	`metadata`,
	tokenize = 'trigram'
);
--> statement-breakpoint
CREATE TRIGGER `contacts_fts_insert` AFTER INSERT ON `contacts` BEGIN
	INSERT INTO `contacts_fts` (`rowid`, `contact_id`, `name`, `email`, `phone_number`, `source_id`, `metadata`)
	VALUES (NEW.rowid, NEW.id, NEW.name, NEW.email, NEW.phone_number, NEW.source_id, (
		SELECT group_concat(CASE WHEN m.type IN ('true', 'false') THEN m.type ELSE CAST(m.value AS TEXT) END, ' ')
		FROM json_tree(CASE WHEN json_valid(NEW.metadata) THEN NEW.metadata END) AS m
		WHERE m.type NOT IN ('object', 'array', 'null')
	));
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_fts_update` AFTER UPDATE OF `name`, `email`, `phone_number`, `source_id`, `metadata` ON `contacts` BEGIN
	DELETE FROM `contacts_fts` WHERE `rowid` = OLD.rowid;
	INSERT INTO `contacts_fts` (`rowid`, `contact_id`, `name`, `email`, `phone_number`, `source_id`, `metadata`)
	VALUES (NEW.rowid, NEW.id, NEW.name, NEW.email, NEW.phone_number, NEW.source_id, (
		SELECT group_concat(CASE WHEN m.type IN ('true', 'false') THEN m.type ELSE CAST(m.value AS TEXT) END, ' ')
		FROM json_tree(CASE WHEN json_valid(NEW.metadata) THEN NEW.metadata END) AS m
		WHERE m.type NOT IN ('object', 'array', 'null')
	));
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_fts_delete` AFTER DELETE ON `contacts` BEGIN
	DELETE FROM `contacts_fts` WHERE `rowid` = OLD.rowid;
END;
--> statement-breakpoint
INSERT INTO `contacts_fts` (`rowid`, `contact_id`, `name`, `email`, `phone_number`, `source_id`, `metadata`)
SELECT c.rowid, c.id, c.name, c.email, c.phone_number, c.source_id, (
	SELECT group_concat(CASE WHEN m.type IN ('true', 'false') THEN m.type ELSE CAST(m.value AS TEXT) END, ' ')
	FROM json_tree(CASE WHEN json_valid(c.metadata) THEN c.metadata END) AS m
	WHERE m.type NOT IN ('object', 'array', 'null')
)
FROM `contacts` AS c;

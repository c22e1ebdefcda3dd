-- Conversation search by terms (docs/decisions.md, "Conversation search by terms"): each distinct
-- word and CJK pair of a conversation's messages once per conversation, written by the pipeline
-- with each message, instead of every message's trigrams. WITHOUT ROWID: the key is the row, kept
-- once (drizzle cannot declare it; the snapshot shows the table without it). The ids are their 16
-- bytes (unhex of the uuid), a third of each row less than their text.
CREATE TABLE `conversation_terms` (
	`organization_id` blob NOT NULL,
	`term` text NOT NULL,
	`conversation_id` blob NOT NULL,
	`last_at` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `term`, `conversation_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `conversation_terms_cursors` (
	`id` text PRIMARY KEY NOT NULL,
	`position` text NOT NULL
);
--> statement-breakpoint
-- SQL cannot tokenize: messages stored before this migration are indexed by housekeeping in pages of
-- rowids, up to the last one now (services/conversation/search-terms.ts, backfillSearchTerms).
INSERT INTO `conversation_terms_cursors` (`id`, `position`)
	SELECT 'backfill', json_object('after', 0, 'through', coalesce(max(`rowid`), 0)) FROM `messages`;
--> statement-breakpoint
DROP TRIGGER `messages_fts_insert`;
--> statement-breakpoint
DROP TRIGGER `messages_fts_update`;
--> statement-breakpoint
DROP TRIGGER `messages_fts_delete`;
--> statement-breakpoint
DROP TABLE `messages_fts`;

-- Conversation search: each stored message's terms, a row per message written in the batch that stores it, read by
-- the search beside conversation_terms and folded into it by a cron many conversations at a time
-- (services/conversation/search-terms.ts; docs/decisions.md, "Conversation search by terms").
CREATE TABLE `conversation_terms_pending` (
	`id` integer PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`at` integer NOT NULL,
	`terms` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `conversation_terms_pending_org_idx` ON `conversation_terms_pending` (`organization_id`);
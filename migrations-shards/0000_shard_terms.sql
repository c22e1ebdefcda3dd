-- An organization shard (`CONVERSATIONS_n`, services/shards): the conversation search terms of the organizations
-- it holds, as `DB` had them (migrations 0029, 0031; docs/decisions.md, "Organization shards"). WITHOUT ROWID as
-- in 0029 (drizzle cannot declare it; the snapshot shows the table without it).
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
CREATE TABLE `conversation_terms_pending` (
	`id` integer PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`at` integer NOT NULL,
	`terms` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `conversation_terms_pending_org_idx` ON `conversation_terms_pending` (`organization_id`);
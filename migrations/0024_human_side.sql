-- The human side of handoff (CONTRACT section 18): assignment and availability, labels, canned responses,
-- private notes, satisfaction, the stretches with people (figures) and lifecycle events for webhooks, whose
-- deliveries now carry either a message or an event.
CREATE TABLE `canned_responses` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`short_code` text NOT NULL,
	`content` text NOT NULL,
	`created_by_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `canned_responses_org_code_uq` ON `canned_responses` (`organization_id`,`short_code`);--> statement-breakpoint
CREATE TABLE `conversation_events` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`inbox_id` text NOT NULL,
	`changes` text NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversation_events_conversation_idx` ON `conversation_events` (`conversation_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `conversation_handoffs` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`inbox_id` text NOT NULL,
	`chatbot_id` text,
	`reason` text NOT NULL,
	`is_test` integer DEFAULT false NOT NULL,
	`queued_at` integer NOT NULL,
	`team_id` text,
	`assignee_id` text,
	`assigned_at` integer,
	`first_response_at` integer,
	`ended_at` integer,
	`resolved` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversation_handoffs_org_idx` ON `conversation_handoffs` (`organization_id`,`queued_at`);--> statement-breakpoint
CREATE INDEX `conversation_handoffs_conversation_idx` ON `conversation_handoffs` (`conversation_id`,`queued_at`);--> statement-breakpoint
CREATE TABLE `conversation_labels` (
	`conversation_id` text NOT NULL,
	`label_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`conversation_id`, `label_id`),
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`label_id`) REFERENCES `labels`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversation_labels_label_idx` ON `conversation_labels` (`label_id`);--> statement-breakpoint
CREATE TABLE `labels` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`color` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `labels_org_name_uq` ON `labels` (`organization_id`,`name`);--> statement-breakpoint
-- D1 keeps foreign keys on: deferred, the rebuilt table's rows are checked at the end (D1 has no PRAGMA foreign_keys).
PRAGMA defer_foreign_keys = on;--> statement-breakpoint
CREATE TABLE `__new_webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`webhook_id` text NOT NULL,
	`inbox_id` text NOT NULL,
	`chatbot_id` text,
	`message_id` text,
	`conversation_event_id` text,
	`event` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempt` integer DEFAULT 1 NOT NULL,
	`scheduled_at` integer DEFAULT 0 NOT NULL,
	`lease_until` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`url` text,
	`request_body` text,
	`response_status` integer,
	`response_body` text,
	`duration_ms` integer,
	`error` text,
	`created_at` integer NOT NULL,
	`delivered_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`conversation_event_id`) REFERENCES `conversation_events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_webhook_deliveries`("id", "organization_id", "webhook_id", "inbox_id", "chatbot_id", "message_id", "conversation_event_id", "event", "status", "attempt", "scheduled_at", "lease_until", "attempts", "url", "request_body", "response_status", "response_body", "duration_ms", "error", "created_at", "delivered_at") SELECT "id", "organization_id", "webhook_id", "inbox_id", "chatbot_id", "message_id", "conversation_event_id", "event", "status", "attempt", "scheduled_at", "lease_until", "attempts", "url", "request_body", "response_status", "response_body", "duration_ms", "error", "created_at", "delivered_at" FROM `webhook_deliveries`;--> statement-breakpoint
DROP TABLE `webhook_deliveries`;--> statement-breakpoint
ALTER TABLE `__new_webhook_deliveries` RENAME TO `webhook_deliveries`;--> statement-breakpoint
PRAGMA defer_foreign_keys = off;--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_attempt_uq` ON `webhook_deliveries` (`message_id`,`webhook_id`,`attempt`);--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_event_attempt_uq` ON `webhook_deliveries` (`conversation_event_id`,`webhook_id`,`attempt`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook_idx` ON `webhook_deliveries` (`webhook_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_chatbot_idx` ON `webhook_deliveries` (`chatbot_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_pending_idx` ON `webhook_deliveries` (`status`,`scheduled_at`);--> statement-breakpoint
ALTER TABLE `members` ADD `availability` text DEFAULT 'offline' NOT NULL;--> statement-breakpoint
ALTER TABLE `members` ADD `capacity` integer;--> statement-breakpoint
ALTER TABLE `members` ADD `last_assigned_at` integer;--> statement-breakpoint
ALTER TABLE `inboxes` ADD `assignment` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `team_id` text REFERENCES groups(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `conversations` ADD `waiting_since` integer;--> statement-breakpoint
ALTER TABLE `conversations` ADD `csat_rating` integer;--> statement-breakpoint
ALTER TABLE `conversations` ADD `csat_comment` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `csat_at` integer;--> statement-breakpoint
CREATE INDEX `conversations_assignee_idx` ON `conversations` (`organization_id`,`assignee_id`,`status`);--> statement-breakpoint
CREATE INDEX `conversations_waiting_idx` ON `conversations` (`organization_id`,`waiting_since`);--> statement-breakpoint
ALTER TABLE `messages` ADD `private` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `conversation_events` integer DEFAULT false NOT NULL;
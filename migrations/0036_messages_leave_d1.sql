-- Messages leave D1 for their conversation's object (docs/decisions.md, "Messages in the conversation object"): the
-- outboxes that name a message (webhook and channel deliveries) keep its id without a foreign key, so a message copied
-- into its object and deleted from D1 takes no delivery with it.
PRAGMA defer_foreign_keys = on;--> statement-breakpoint
CREATE TABLE `__new_webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`webhook_id` text NOT NULL,
	`inbox_id` text NOT NULL,
	`chatbot_id` text,
	`message_id` text,
	`conversation_event_id` text,
	`conversation_id` text,
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
	FOREIGN KEY (`conversation_event_id`) REFERENCES `conversation_events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_webhook_deliveries`("id", "organization_id", "webhook_id", "inbox_id", "chatbot_id", "message_id", "conversation_event_id", "conversation_id", "event", "status", "attempt", "scheduled_at", "lease_until", "attempts", "url", "request_body", "response_status", "response_body", "duration_ms", "error", "created_at", "delivered_at") SELECT "id", "organization_id", "webhook_id", "inbox_id", "chatbot_id", "message_id", "conversation_event_id", "conversation_id", "event", "status", "attempt", "scheduled_at", "lease_until", "attempts", "url", "request_body", "response_status", "response_body", "duration_ms", "error", "created_at", "delivered_at" FROM `webhook_deliveries`;--> statement-breakpoint
DROP TABLE `webhook_deliveries`;--> statement-breakpoint
ALTER TABLE `__new_webhook_deliveries` RENAME TO `webhook_deliveries`;--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_attempt_uq` ON `webhook_deliveries` (`message_id`,`webhook_id`,`attempt`);--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_event_attempt_uq` ON `webhook_deliveries` (`conversation_event_id`,`webhook_id`,`attempt`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook_idx` ON `webhook_deliveries` (`webhook_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_chatbot_idx` ON `webhook_deliveries` (`chatbot_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_pending_idx` ON `webhook_deliveries` (`status`,`scheduled_at`);--> statement-breakpoint
CREATE TABLE `__new_channel_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`inbox_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`message_id` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`lease_until` integer,
	`error` text,
	`platform_message_ids` text,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	`shown` integer DEFAULT true NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`inbox_id`) REFERENCES `inboxes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_channel_deliveries`("id", "organization_id", "inbox_id", "conversation_id", "message_id", "status", "attempts", "next_attempt_at", "lease_until", "error", "platform_message_ids", "created_at", "sent_at", "shown") SELECT "id", "organization_id", "inbox_id", "conversation_id", "message_id", "status", "attempts", "next_attempt_at", "lease_until", "error", "platform_message_ids", "created_at", "sent_at", "shown" FROM `channel_deliveries`;--> statement-breakpoint
DROP TABLE `channel_deliveries`;--> statement-breakpoint
ALTER TABLE `__new_channel_deliveries` RENAME TO `channel_deliveries`;--> statement-breakpoint
CREATE INDEX `channel_deliveries_conversation_idx` ON `channel_deliveries` (`conversation_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `channel_deliveries_pending_idx` ON `channel_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `channel_deliveries_message_idx` ON `channel_deliveries` (`message_id`);--> statement-breakpoint
CREATE INDEX `channel_deliveries_unshown_idx` ON `channel_deliveries` (`message_id`) WHERE "channel_deliveries"."shown" = 0;--> statement-breakpoint
PRAGMA defer_foreign_keys = off;

CREATE TABLE `channel_deliveries` (
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
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`inbox_id`) REFERENCES `inboxes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `channel_deliveries_conversation_idx` ON `channel_deliveries` (`conversation_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `channel_deliveries_pending_idx` ON `channel_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `channel_deliveries_message_idx` ON `channel_deliveries` (`message_id`);--> statement-breakpoint
CREATE TABLE `channel_events` (
	`inbox_id` text NOT NULL,
	`event_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`payload` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`message_id` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`error` text,
	`received_at` integer NOT NULL,
	PRIMARY KEY(`inbox_id`, `event_id`),
	FOREIGN KEY (`inbox_id`) REFERENCES `inboxes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `channel_events_pending_idx` ON `channel_events` (`status`,`received_at`);--> statement-breakpoint
CREATE TABLE `channel_threads` (
	`inbox_id` text NOT NULL,
	`thread_key` text NOT NULL,
	`organization_id` text NOT NULL,
	`contact_id` text,
	`conversation_id` text,
	`context` text,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`inbox_id`, `thread_key`),
	FOREIGN KEY (`inbox_id`) REFERENCES `inboxes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `channel_threads_conversation_idx` ON `channel_threads` (`conversation_id`);--> statement-breakpoint
CREATE TABLE `inbox_channels` (
	`inbox_id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`channel_type` text NOT NULL,
	`settings` text NOT NULL,
	`secrets_sealed` text,
	`verify_token` text NOT NULL,
	`webhook_secret` text NOT NULL,
	`status` text DEFAULT 'not_connected' NOT NULL,
	`origin` text NOT NULL,
	`last_error` text,
	`last_event_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`inbox_id`) REFERENCES `inboxes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `inbox_channels_org_idx` ON `inbox_channels` (`organization_id`);--> statement-breakpoint
-- A message's delivery to its platform, as its record shows it (`metadata.channelDelivery`, CONTRACT
-- section 17): kept equal to its channel_deliveries row by the database itself, so no write of a
-- delivery can forget it.
CREATE TRIGGER `channel_deliveries_shown_on_insert` AFTER INSERT ON `channel_deliveries` BEGIN
	UPDATE `messages` SET `metadata` = json_set(coalesce(`metadata`, '{}'), '$.channelDelivery', json_object('status', NEW.`status`, 'attempts', NEW.`attempts`, 'error', NEW.`error`, 'platformMessageIds', json(coalesce(NEW.`platform_message_ids`, '[]')))) WHERE `id` = NEW.`message_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `channel_deliveries_shown_on_update` AFTER UPDATE OF `status`, `attempts`, `error`, `platform_message_ids` ON `channel_deliveries` BEGIN
	UPDATE `messages` SET `metadata` = json_set(coalesce(`metadata`, '{}'), '$.channelDelivery', json_object('status', NEW.`status`, 'attempts', NEW.`attempts`, 'error', NEW.`error`, 'platformMessageIds', json(coalesce(NEW.`platform_message_ids`, '[]')))) WHERE `id` = NEW.`message_id`;
END;

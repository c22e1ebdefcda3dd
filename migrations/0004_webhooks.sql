CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`webhook_id` text NOT NULL,
	`inbox_id` text NOT NULL,
	`chatbot_id` text,
	`message_id` text NOT NULL,
	`event` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
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
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_message_webhook_uq` ON `webhook_deliveries` (`message_id`,`webhook_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook_idx` ON `webhook_deliveries` (`webhook_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_chatbot_idx` ON `webhook_deliveries` (`chatbot_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_pending_idx` ON `webhook_deliveries` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`inbox_id` text NOT NULL,
	`name` text NOT NULL,
	`direction` text NOT NULL,
	`is_enabled` integer DEFAULT true NOT NULL,
	`url` text NOT NULL,
	`method` text DEFAULT 'POST' NOT NULL,
	`headers` text,
	`template_preset` text DEFAULT 'service_standard' NOT NULL,
	`custom_template` text,
	`secret_token_sealed` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`inbox_id`) REFERENCES `inboxes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhooks_inbox_idx` ON `webhooks` (`inbox_id`,`direction`);
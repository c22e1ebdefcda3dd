CREATE TABLE `contact_inboxes` (
	`contact_id` text NOT NULL,
	`inbox_id` text NOT NULL,
	PRIMARY KEY(`contact_id`, `inbox_id`),
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`inbox_id`) REFERENCES `inboxes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contact_inboxes_inbox_idx` ON `contact_inboxes` (`inbox_id`);--> statement-breakpoint
CREATE TABLE `contact_tags` (
	`contact_id` text NOT NULL,
	`tag_id` text NOT NULL,
	PRIMARY KEY(`contact_id`, `tag_id`),
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tag_id`) REFERENCES `tags`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contact_tags_tag_idx` ON `contact_tags` (`tag_id`);--> statement-breakpoint
CREATE TABLE `contacts` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`avatar` text,
	`phone_number` text,
	`email` text,
	`source_id` text,
	`query_metadata` text,
	`metadata` text,
	`pre_chat_field_index` text,
	`mcp_credentials_sealed` text,
	`api_credentials_sealed` text,
	`contact_connectors` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contacts_org_idx` ON `contacts` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `contacts_source_idx` ON `contacts` (`organization_id`,`source_id`);--> statement-breakpoint
CREATE TABLE `tags` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tags_org_name_uq` ON `tags` (`organization_id`,`name`);--> statement-breakpoint
CREATE TABLE `conversations` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`inbox_id` text NOT NULL,
	`chatbot_id` text,
	`contact_id` text,
	`title` text DEFAULT '' NOT NULL,
	`type` text DEFAULT 'individual' NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`progress_status` text DEFAULT 'open' NOT NULL,
	`auto_reply_enabled` integer DEFAULT true NOT NULL,
	`assignee_id` text,
	`last_message` text,
	`last_message_at` integer,
	`unread_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`inbox_id`) REFERENCES `inboxes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`assignee_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `conversations_inbox_idx` ON `conversations` (`inbox_id`,`last_message_at`);--> statement-breakpoint
CREATE INDEX `conversations_org_idx` ON `conversations` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `conversations_contact_idx` ON `conversations` (`contact_id`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`sequence` integer NOT NULL,
	`type` text NOT NULL,
	`sender_type` text NOT NULL,
	`sender_id` text,
	`sender_name` text DEFAULT '' NOT NULL,
	`sender_avatar` text,
	`content` text DEFAULT '' NOT NULL,
	`content_payload` text,
	`attachments` text,
	`citations` text,
	`citation_nodes` text,
	`canvas` text,
	`query_metadata` text,
	`metadata` text,
	`skill_ids` text,
	`tool_ids` text,
	`feedback` text,
	`words_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `messages_conversation_seq_uq` ON `messages` (`conversation_id`,`sequence`);--> statement-breakpoint
CREATE INDEX `messages_org_idx` ON `messages` (`organization_id`,`created_at`);
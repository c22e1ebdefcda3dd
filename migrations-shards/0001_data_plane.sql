-- An organization's data plane in its shard (src/db/planes.ts DATA_TABLES; docs/scale.md §5 step 4, "The worklist"
-- 7, step 7): the tables `DB` has for them, with their indexes and triggers, as migrations/ leave them, less the
-- foreign keys to the control plane (organizations, inboxes, chatbots, webhooks, labels, tools, groups, users), whose
-- deletes reach these rows in code (services/purges.ts). test/db/shard-schema.test.ts keeps the two alike.
CREATE TABLE `organization_usage` (
	`organization_id` text NOT NULL,
	`month` text NOT NULL,
	`words_count` integer DEFAULT 0 NOT NULL,
	`conversations_count` integer DEFAULT 0 NOT NULL,
	`uploaded_bytes` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`organization_id`, `month`)
);
--> statement-breakpoint
CREATE TABLE `contact_inboxes` (
	`contact_id` text NOT NULL,
	`inbox_id` text NOT NULL,
	PRIMARY KEY(`contact_id`, `inbox_id`),
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contact_inboxes_inbox_idx` ON `contact_inboxes` (`inbox_id`);
--> statement-breakpoint
CREATE TABLE `contact_tags` (
	`contact_id` text NOT NULL,
	`tag_id` text NOT NULL,
	PRIMARY KEY(`contact_id`, `tag_id`),
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tag_id`) REFERENCES `tags`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contact_tags_tag_idx` ON `contact_tags` (`tag_id`);
--> statement-breakpoint
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
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `contacts_org_idx` ON `contacts` (`organization_id`,`created_at`);
--> statement-breakpoint
CREATE INDEX `contacts_source_idx` ON `contacts` (`organization_id`,`source_id`);
--> statement-breakpoint
CREATE TABLE `tags` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tags_org_name_uq` ON `tags` (`organization_id`,`name`);
--> statement-breakpoint
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
	`updated_at` integer NOT NULL, `created_by_id` text, `is_test` integer DEFAULT false NOT NULL, `team_id` text, `waiting_since` integer, `csat_rating` integer, `csat_comment` text, `csat_at` integer,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `conversations_inbox_idx` ON `conversations` (`inbox_id`,`last_message_at`);
--> statement-breakpoint
CREATE INDEX `conversations_org_idx` ON `conversations` (`organization_id`,`created_at`);
--> statement-breakpoint
CREATE INDEX `conversations_contact_idx` ON `conversations` (`contact_id`);
--> statement-breakpoint
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
	`created_at` integer NOT NULL, `model_id` text, `input_tokens` integer, `output_tokens` integer, `unanswered` integer DEFAULT false NOT NULL, `private` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `messages_conversation_seq_uq` ON `messages` (`conversation_id`,`sequence`);
--> statement-breakpoint
CREATE INDEX `messages_org_idx` ON `messages` (`organization_id`,`created_at`);
--> statement-breakpoint
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
CREATE TABLE `attachments` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`conversation_id` text,
	`key` text NOT NULL,
	`filename` text NOT NULL,
	`type` text NOT NULL,
	`content_type` text DEFAULT 'application/octet-stream' NOT NULL,
	`size` integer DEFAULT 0 NOT NULL,
	`extraction_status` text DEFAULT 'none' NOT NULL,
	`extracted_text` text,
	`extraction_error` text,
	`created_by` text,
	`expires_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `attachments_org_idx` ON `attachments` (`organization_id`,`created_at`);
--> statement-breakpoint
CREATE INDEX `attachments_conversation_idx` ON `attachments` (`conversation_id`);
--> statement-breakpoint
CREATE INDEX `attachments_key_idx` ON `attachments` (`key`);
--> statement-breakpoint
CREATE INDEX `attachments_expiry_idx` ON `attachments` (`expires_at`);
--> statement-breakpoint
CREATE TABLE `uploads` (
	`key` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`model_name` text NOT NULL,
	`field_name` text NOT NULL,
	`filename` text NOT NULL,
	`content_type` text,
	`max_size` integer NOT NULL,
	`size` integer,
	`created_by` text,
	`uploaded_at` integer,
	`claimed_at` integer,
	`expires_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `uploads_org_idx` ON `uploads` (`organization_id`);
--> statement-breakpoint
CREATE INDEX `uploads_expiry_idx` ON `uploads` (`claimed_at`,`expires_at`);
--> statement-breakpoint
CREATE TABLE `tool_execution_records` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`chatbot_id` text,
	`chatbot_name` text DEFAULT '' NOT NULL,
	`tool_id` text,
	`tool_name` text NOT NULL,
	`tool_display_name` text DEFAULT '' NOT NULL,
	`tool_type` text NOT NULL,
	`conversation_id` text,
	`message_id` text,
	`message_text` text DEFAULT '' NOT NULL,
	`call_id` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`input` text NOT NULL,
	`output` text,
	`error` text,
	`duration_ms` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `tool_execution_records_org_idx` ON `tool_execution_records` (`organization_id`,`created_at`);
--> statement-breakpoint
CREATE INDEX `tool_execution_records_tool_idx` ON `tool_execution_records` (`tool_id`,`created_at`);
--> statement-breakpoint
CREATE INDEX `tool_execution_records_chatbot_idx` ON `tool_execution_records` (`chatbot_id`);
--> statement-breakpoint
CREATE TABLE `chatbot_records` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`contact_id` text,
	`reply_message_id` text,
	`input_message` text DEFAULT '' NOT NULL,
	`condense_message` text,
	`output_message` text,
	`context` text,
	`reply_ms` integer,
	`error` text,
	`created_at` integer NOT NULL,
	`answered_at` integer,
	`evaluation_status` text,
	`faithfulness` real,
	`answer_relevancy` real,
	`context_precision` real,
	`context_recall` real,
	`answer_correctness` real,
	`answer_similarity` real
);
--> statement-breakpoint
CREATE INDEX `chatbot_records_chatbot_idx` ON `chatbot_records` (`chatbot_id`,`created_at`);
--> statement-breakpoint
CREATE TABLE `usage_hourly` (
	`organization_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`hour` integer NOT NULL,
	`member_id` text DEFAULT '' NOT NULL,
	`model_id` text DEFAULT '' NOT NULL,
	`conversations` integer DEFAULT 0 NOT NULL,
	`incoming_messages` integer DEFAULT 0 NOT NULL,
	`outgoing_messages` integer DEFAULT 0 NOT NULL,
	`replies` integer DEFAULT 0 NOT NULL,
	`reply_ms` integer DEFAULT 0 NOT NULL,
	`failed_replies` integer DEFAULT 0 NOT NULL,
	`likes` integer DEFAULT 0 NOT NULL,
	`dislikes` integer DEFAULT 0 NOT NULL,
	`tool_calls` integer DEFAULT 0 NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`input_tokens` integer DEFAULT 0 NOT NULL,
	`output_tokens` integer DEFAULT 0 NOT NULL,
	`words` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`chatbot_id`, `hour`, `member_id`, `model_id`)
);
--> statement-breakpoint
CREATE INDEX `usage_hourly_org_idx` ON `usage_hourly` (`organization_id`,`hour`);
--> statement-breakpoint
CREATE TABLE `usage_hourly_contacts` (
	`organization_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`hour` integer NOT NULL,
	`contact_id` text NOT NULL,
	PRIMARY KEY(`chatbot_id`, `hour`, `contact_id`)
);
--> statement-breakpoint
CREATE TRIGGER `usage_on_conversation` AFTER INSERT ON `conversations` WHEN NEW.`chatbot_id` IS NOT NULL BEGIN
	INSERT INTO `usage_hourly` (`organization_id`, `chatbot_id`, `hour`, `member_id`, `model_id`, `conversations`)
	VALUES (NEW.`organization_id`, NEW.`chatbot_id`, NEW.`created_at` - NEW.`created_at` % 3600000, coalesce(NEW.`created_by_id`, ''), '', 1)
	ON CONFLICT (`chatbot_id`, `hour`, `member_id`, `model_id`) DO UPDATE SET `conversations` = `conversations` + 1;
END;
--> statement-breakpoint
CREATE TABLE `usage_daily_chatbots` (
	`organization_id` text NOT NULL,
	`day` integer NOT NULL,
	`chatbot_id` text NOT NULL,
	`conversations` integer DEFAULT 0 NOT NULL,
	`incoming_messages` integer DEFAULT 0 NOT NULL,
	`outgoing_messages` integer DEFAULT 0 NOT NULL,
	`replies` integer DEFAULT 0 NOT NULL,
	`failed_replies` integer DEFAULT 0 NOT NULL,
	`words` integer DEFAULT 0 NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`input_tokens` integer DEFAULT 0 NOT NULL,
	`output_tokens` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`organization_id`, `day`, `chatbot_id`)
);
--> statement-breakpoint
CREATE TABLE `usage_daily_members` (
	`organization_id` text NOT NULL,
	`day` integer NOT NULL,
	`member_id` text NOT NULL,
	`conversations` integer DEFAULT 0 NOT NULL,
	`incoming_messages` integer DEFAULT 0 NOT NULL,
	`outgoing_messages` integer DEFAULT 0 NOT NULL,
	`replies` integer DEFAULT 0 NOT NULL,
	`failed_replies` integer DEFAULT 0 NOT NULL,
	`words` integer DEFAULT 0 NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`input_tokens` integer DEFAULT 0 NOT NULL,
	`output_tokens` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`organization_id`, `day`, `member_id`)
);
--> statement-breakpoint
CREATE TABLE `usage_rollup` (
	`id` text PRIMARY KEY NOT NULL,
	`through` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `conversations_org_id_idx` ON `conversations` (`organization_id`,`id`);
--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`organization_id` text NOT NULL,
	`owner` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`status` integer,
	`response` text,
	`content_type` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`owner`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_idx` ON `idempotency_keys` (`created_at`);
--> statement-breakpoint
CREATE TABLE `usage_hourly_tests` (
	`organization_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`hour` integer NOT NULL,
	`member_id` text DEFAULT '' NOT NULL,
	`model_id` text DEFAULT '' NOT NULL,
	`conversations` integer DEFAULT 0 NOT NULL,
	`incoming_messages` integer DEFAULT 0 NOT NULL,
	`outgoing_messages` integer DEFAULT 0 NOT NULL,
	`replies` integer DEFAULT 0 NOT NULL,
	`reply_ms` integer DEFAULT 0 NOT NULL,
	`failed_replies` integer DEFAULT 0 NOT NULL,
	`likes` integer DEFAULT 0 NOT NULL,
	`dislikes` integer DEFAULT 0 NOT NULL,
	`tool_calls` integer DEFAULT 0 NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`input_tokens` integer DEFAULT 0 NOT NULL,
	`output_tokens` integer DEFAULT 0 NOT NULL,
	`words` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`chatbot_id`, `hour`, `member_id`, `model_id`)
);
--> statement-breakpoint
CREATE TRIGGER `usage_tests_on_conversation` AFTER INSERT ON `conversations` WHEN NEW.`chatbot_id` IS NOT NULL AND NEW.`is_test` = 1 BEGIN
	INSERT INTO `usage_hourly_tests` (`organization_id`, `chatbot_id`, `hour`, `member_id`, `model_id`, `conversations`)
	VALUES (NEW.`organization_id`, NEW.`chatbot_id`, NEW.`created_at` - NEW.`created_at` % 3600000, coalesce(NEW.`created_by_id`, ''), '', 1)
	ON CONFLICT (`chatbot_id`, `hour`, `member_id`, `model_id`) DO UPDATE SET `conversations` = `conversations` + 1;
END;
--> statement-breakpoint
CREATE TABLE `channel_events` (
	`inbox_id` text NOT NULL,
	`event_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`payload` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`message_id` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`error` text,
	`received_at` integer NOT NULL, `thread_key` text, `at` integer,
	PRIMARY KEY(`inbox_id`, `event_id`)
);
--> statement-breakpoint
CREATE INDEX `channel_events_pending_idx` ON `channel_events` (`status`,`received_at`);
--> statement-breakpoint
CREATE TABLE `channel_threads` (
	`inbox_id` text NOT NULL,
	`thread_key` text NOT NULL,
	`organization_id` text NOT NULL,
	`contact_id` text,
	`conversation_id` text,
	`context` text,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`inbox_id`, `thread_key`),
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `channel_threads_conversation_idx` ON `channel_threads` (`conversation_id`);
--> statement-breakpoint
CREATE INDEX `channel_events_chat_idx` ON `channel_events` (`inbox_id`,`thread_key`,`status`);
--> statement-breakpoint
CREATE TABLE `conversation_events` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`inbox_id` text NOT NULL,
	`changes` text NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversation_events_conversation_idx` ON `conversation_events` (`conversation_id`,`created_at`);
--> statement-breakpoint
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
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversation_handoffs_org_idx` ON `conversation_handoffs` (`organization_id`,`queued_at`);
--> statement-breakpoint
CREATE INDEX `conversation_handoffs_conversation_idx` ON `conversation_handoffs` (`conversation_id`,`queued_at`);
--> statement-breakpoint
CREATE TABLE `conversation_labels` (
	`conversation_id` text NOT NULL,
	`label_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`conversation_id`, `label_id`),
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversation_labels_label_idx` ON `conversation_labels` (`label_id`);
--> statement-breakpoint
CREATE INDEX `conversations_assignee_idx` ON `conversations` (`organization_id`,`assignee_id`,`status`);
--> statement-breakpoint
CREATE INDEX `conversations_waiting_idx` ON `conversations` (`organization_id`,`waiting_since`);
--> statement-breakpoint
CREATE TRIGGER `handoffs_on_new_conversation` AFTER INSERT ON `conversations`
WHEN NEW.`status` = 'queued' OR NEW.`progress_status` IN ('waiting_for_human', 'human_serving') BEGIN
	INSERT INTO `conversation_handoffs` (`id`, `organization_id`, `conversation_id`, `inbox_id`, `chatbot_id`, `reason`, `is_test`, `queued_at`, `team_id`, `assignee_id`, `assigned_at`, `first_response_at`, `ended_at`, `resolved`)
	VALUES (lower(substr(printf('%012x', NEW.`created_at`), 1, 8) || '-' || substr(printf('%012x', NEW.`created_at`), 9, 4) || '-7' || substr(hex(randomblob(2)), 2) || '-' ||
			substr('89ab', 1 + (random() & 3), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
		NEW.`organization_id`, NEW.`id`, NEW.`inbox_id`, NEW.`chatbot_id`, 'operator', NEW.`is_test`, NEW.`created_at`,
		NEW.`team_id`, NEW.`assignee_id`, CASE WHEN NEW.`assignee_id` IS NOT NULL THEN NEW.`created_at` END, NULL, NULL, 0);
END;
--> statement-breakpoint
CREATE TABLE `webhook_delivery_segments` (
	`key` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`hour` integer NOT NULL,
	`records` integer NOT NULL,
	`counts` text NOT NULL,
	`min_id` text NOT NULL,
	`max_id` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_delivery_segments_hour_idx` ON `webhook_delivery_segments` (`organization_id`,`hour`);
--> statement-breakpoint
CREATE INDEX `webhook_delivery_segments_id_idx` ON `webhook_delivery_segments` (`organization_id`,`min_id`);
--> statement-breakpoint
CREATE TABLE `chatbot_record_segments` (
	`key` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`hour` integer NOT NULL,
	`records` integer NOT NULL,
	`min_created_at` integer NOT NULL,
	`max_created_at` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `chatbot_record_segments_hour_idx` ON `chatbot_record_segments` (`chatbot_id`,`hour`);
--> statement-breakpoint
CREATE INDEX `chatbot_records_created_idx` ON `chatbot_records` (`created_at`);
--> statement-breakpoint
CREATE TABLE `tool_record_segments` (
	`key` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`chatbot_id` text,
	`tool_id` text,
	`hour` integer NOT NULL,
	`records` integer NOT NULL,
	`min_created_at` integer NOT NULL,
	`max_created_at` integer NOT NULL,
	`min_id` text NOT NULL,
	`max_id` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `tool_record_segments_org_idx` ON `tool_record_segments` (`organization_id`,`max_created_at`);
--> statement-breakpoint
CREATE INDEX `tool_record_segments_id_idx` ON `tool_record_segments` (`organization_id`,`min_id`);
--> statement-breakpoint
CREATE INDEX `tool_record_segments_chatbot_idx` ON `tool_record_segments` (`chatbot_id`);
--> statement-breakpoint
CREATE INDEX `tool_record_segments_tool_idx` ON `tool_record_segments` (`tool_id`,`max_created_at`);
--> statement-breakpoint
CREATE INDEX `tool_execution_records_created_idx` ON `tool_execution_records` (`created_at`);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
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
	FOREIGN KEY (`conversation_event_id`) REFERENCES `conversation_events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_attempt_uq` ON `webhook_deliveries` (`message_id`,`webhook_id`,`attempt`);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_event_attempt_uq` ON `webhook_deliveries` (`conversation_event_id`,`webhook_id`,`attempt`);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook_idx` ON `webhook_deliveries` (`webhook_id`,`created_at`);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_chatbot_idx` ON `webhook_deliveries` (`chatbot_id`,`created_at`);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_pending_idx` ON `webhook_deliveries` (`status`,`scheduled_at`);
--> statement-breakpoint
CREATE TABLE "channel_deliveries" (
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
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `channel_deliveries_conversation_idx` ON `channel_deliveries` (`conversation_id`,`status`,`id`);
--> statement-breakpoint
CREATE INDEX `channel_deliveries_pending_idx` ON `channel_deliveries` (`status`,`next_attempt_at`);
--> statement-breakpoint
CREATE INDEX `channel_deliveries_message_idx` ON `channel_deliveries` (`message_id`);
--> statement-breakpoint
CREATE INDEX `channel_deliveries_unshown_idx` ON `channel_deliveries` (`message_id`) WHERE "channel_deliveries"."shown" = 0;
--> statement-breakpoint
CREATE TRIGGER `handoffs_on_conversation` AFTER UPDATE OF `status`, `progress_status`, `assignee_id`, `team_id` ON `conversations`
WHEN NEW.`status` IS NOT OLD.`status` OR NEW.`progress_status` IS NOT OLD.`progress_status` OR NEW.`assignee_id` IS NOT OLD.`assignee_id` OR NEW.`team_id` IS NOT OLD.`team_id` BEGIN
	UPDATE `conversation_handoffs`
	SET `ended_at` = max(CASE WHEN NEW.`updated_at` > OLD.`updated_at` THEN NEW.`updated_at` ELSE CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) END, `queued_at`),
		`resolved` = NEW.`status` = 'resolved'
	WHERE `conversation_id` = NEW.`id` AND `ended_at` IS NULL
		AND NOT (NEW.`status` = 'queued' OR NEW.`progress_status` IN ('waiting_for_human', 'human_serving'));
	-- Opened as an operator's; the message whose batch brought the conversation to people, written
	-- by its conversation's object, gives the assistant's reason or a member's first response in the
	-- statements after this change (statistics/message-figures.ts, stretchWrites).
	INSERT INTO `conversation_handoffs` (`id`, `organization_id`, `conversation_id`, `inbox_id`, `chatbot_id`, `reason`, `is_test`, `queued_at`, `team_id`, `assignee_id`, `assigned_at`, `first_response_at`, `ended_at`, `resolved`)
	SELECT lower(substr(printf('%012x', x.`at`), 1, 8) || '-' || substr(printf('%012x', x.`at`), 9, 4) || '-7' || substr(hex(randomblob(2)), 2) || '-' ||
			substr('89ab', 1 + (random() & 3), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
		NEW.`organization_id`, NEW.`id`, NEW.`inbox_id`, NEW.`chatbot_id`, coalesce(x.`reason`, 'operator'), NEW.`is_test`, x.`at`,
		NEW.`team_id`, NEW.`assignee_id`, CASE WHEN NEW.`assignee_id` IS NOT NULL THEN x.`at` END, x.`response_at`, NULL, 0
	FROM (
		SELECT CASE WHEN NEW.`updated_at` > OLD.`updated_at` THEN NEW.`updated_at` ELSE CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) END AS `at`,
			NULL AS `response_at`, NULL AS `reason`
	) x
	WHERE (NEW.`status` = 'queued' OR NEW.`progress_status` IN ('waiting_for_human', 'human_serving'))
		AND NOT EXISTS (SELECT 1 FROM `conversation_handoffs` WHERE `conversation_id` = NEW.`id` AND `ended_at` IS NULL);
	UPDATE `conversation_handoffs`
	SET `team_id` = coalesce(NEW.`team_id`, `team_id`),
		`assignee_id` = coalesce(NEW.`assignee_id`, `assignee_id`),
		`assigned_at` = CASE WHEN `assigned_at` IS NULL AND NEW.`assignee_id` IS NOT NULL
			THEN max(CASE WHEN NEW.`updated_at` > OLD.`updated_at` THEN NEW.`updated_at` ELSE CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) END, `queued_at`)
			ELSE `assigned_at` END
	WHERE `conversation_id` = NEW.`id` AND `ended_at` IS NULL;
END;
--> statement-breakpoint
CREATE TABLE `forgotten_conversations` (
	`conversation_id` text PRIMARY KEY NOT NULL,
	`forgotten_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `purges` (
	`organization_id` text,
	`kind` text NOT NULL,
	`id` text NOT NULL,
	`since` integer NOT NULL,
	PRIMARY KEY(`kind`, `id`)
);
--> statement-breakpoint
CREATE TABLE `chatbot_words` (
	`chatbot_id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`words` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `conversations_unread_idx` ON `conversations` (`organization_id`,`inbox_id`) WHERE unread_count > 0;

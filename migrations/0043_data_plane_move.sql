-- Moving an organization's data plane from `DB` to its shard while it is written (services/shards/data-plane-move.ts;
-- docs/decisions.md, "Moving an organization's data plane"). `organization_shards.data_plane` gains two states:
-- 'moving' (`DB` still holds the rows; every change to them is logged in `data_plane_changes` for the copy to
-- replay) and 'fenced' (the last changes are replayed; the conversation pipeline's statements wait). From 'fenced' on,
-- an insert or update in `DB` of the organization's rows is dropped (RAISE(IGNORE)) and a delete is not logged: what
-- still writes there is housekeeping or a control plane's cascade on rows left behind, which the shard's own redo;
-- the pipeline's statements are stopped before by `plane_checks`.
CREATE TABLE `data_plane_changes` (
	`id` integer PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL REFERENCES `organizations`(`id`) ON DELETE CASCADE,
	`table_name` text NOT NULL,
	`key` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `data_plane_changes_organization_idx` ON `data_plane_changes` (`organization_id`, `id`);
--> statement-breakpoint
-- Always empty: inserting an organization's id is the check a statement on its data plane in `DB` makes in its own
-- batch (services/shards/plane-router.ts), which fails once the organization's rows are fenced or moved.
CREATE TABLE `plane_checks` (`organization_id` text NOT NULL);
--> statement-breakpoint
CREATE TRIGGER `plane_checks_guard` BEFORE INSERT ON `plane_checks` BEGIN
	SELECT RAISE(ABORT, 'data plane moved') WHERE (SELECT `data_plane` FROM `organization_shards`
		WHERE `organization_id` = NEW.`organization_id`) IN ('fenced', 'shard');
	SELECT RAISE(IGNORE);
END;
--> statement-breakpoint
-- The mover's own batches name their organization here while they run, so the triggers that count a new
-- conversation or open its stretch stand aside for a copied row (its figures and stretches are copied too).
CREATE TABLE `mover_batches` (`organization_id` text PRIMARY KEY NOT NULL);
--> statement-breakpoint
DROP TRIGGER `usage_on_conversation`;
--> statement-breakpoint
CREATE TRIGGER `usage_on_conversation` AFTER INSERT ON `conversations` WHEN (NEW.`chatbot_id` IS NOT NULL)
	AND NOT EXISTS (SELECT 1 FROM `mover_batches` WHERE `organization_id` = NEW.`organization_id`) BEGIN
	INSERT INTO `usage_hourly` (`organization_id`, `chatbot_id`, `hour`, `member_id`, `model_id`, `conversations`)
	VALUES (NEW.`organization_id`, NEW.`chatbot_id`, NEW.`created_at` - NEW.`created_at` % 3600000, coalesce(NEW.`created_by_id`, ''), '', 1)
	ON CONFLICT (`chatbot_id`, `hour`, `member_id`, `model_id`) DO UPDATE SET `conversations` = `conversations` + 1;
END;
--> statement-breakpoint
DROP TRIGGER `usage_tests_on_conversation`;
--> statement-breakpoint
CREATE TRIGGER `usage_tests_on_conversation` AFTER INSERT ON `conversations` WHEN (NEW.`chatbot_id` IS NOT NULL AND NEW.`is_test` = 1)
	AND NOT EXISTS (SELECT 1 FROM `mover_batches` WHERE `organization_id` = NEW.`organization_id`) BEGIN
	INSERT INTO `usage_hourly_tests` (`organization_id`, `chatbot_id`, `hour`, `member_id`, `model_id`, `conversations`)
	VALUES (NEW.`organization_id`, NEW.`chatbot_id`, NEW.`created_at` - NEW.`created_at` % 3600000, coalesce(NEW.`created_by_id`, ''), '', 1)
	ON CONFLICT (`chatbot_id`, `hour`, `member_id`, `model_id`) DO UPDATE SET `conversations` = `conversations` + 1;
END;
--> statement-breakpoint
DROP TRIGGER `handoffs_on_new_conversation`;
--> statement-breakpoint
CREATE TRIGGER `handoffs_on_new_conversation` AFTER INSERT ON `conversations`
WHEN (NEW.`status` = 'queued' OR NEW.`progress_status` IN ('waiting_for_human', 'human_serving'))
	AND NOT EXISTS (SELECT 1 FROM `mover_batches` WHERE `organization_id` = NEW.`organization_id`) BEGIN
	INSERT INTO `conversation_handoffs` (`id`, `organization_id`, `conversation_id`, `inbox_id`, `chatbot_id`, `reason`, `is_test`, `queued_at`, `team_id`, `assignee_id`, `assigned_at`, `first_response_at`, `ended_at`, `resolved`)
	VALUES (lower(substr(printf('%012x', NEW.`created_at`), 1, 8) || '-' || substr(printf('%012x', NEW.`created_at`), 9, 4) || '-7' || substr(hex(randomblob(2)), 2) || '-' ||
			substr('89ab', 1 + (random() & 3), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
		NEW.`organization_id`, NEW.`id`, NEW.`inbox_id`, NEW.`chatbot_id`, 'operator', NEW.`is_test`, NEW.`created_at`,
		NEW.`team_id`, NEW.`assignee_id`, CASE WHEN NEW.`assignee_id` IS NOT NULL THEN NEW.`created_at` END, NULL, NULL, 0);
END;
--> statement-breakpoint
DROP TRIGGER `handoffs_on_conversation`;
--> statement-breakpoint
CREATE TRIGGER `handoffs_on_conversation` AFTER UPDATE OF `status`, `progress_status`, `assignee_id`, `team_id` ON `conversations`
WHEN (NEW.`status` IS NOT OLD.`status` OR NEW.`progress_status` IS NOT OLD.`progress_status` OR NEW.`assignee_id` IS NOT OLD.`assignee_id` OR NEW.`team_id` IS NOT OLD.`team_id`)
	AND NOT EXISTS (SELECT 1 FROM `mover_batches` WHERE `organization_id` = NEW.`organization_id`) BEGIN
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
CREATE TRIGGER `moving_contacts_insert` BEFORE INSERT ON `contacts`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'contacts', json_array(NEW.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_contacts_update` BEFORE UPDATE OF `id`, `organization_id`, `name`, `avatar`, `phone_number`, `email`, `source_id`, `query_metadata`, `metadata`, `pre_chat_field_index`, `mcp_credentials_sealed`, `api_credentials_sealed`, `contact_connectors`, `created_at`, `updated_at` ON `contacts`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'contacts', json_array(NEW.`id`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'contacts', json_array(OLD.`id`) WHERE json_array(OLD.`id`) <> json_array(NEW.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_contacts_delete` AFTER DELETE ON `contacts`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'contacts', json_array(OLD.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_tags_insert` BEFORE INSERT ON `tags`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'tags', json_array(NEW.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_tags_update` BEFORE UPDATE OF `id`, `organization_id`, `name`, `created_at`, `updated_at` ON `tags`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'tags', json_array(NEW.`id`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'tags', json_array(OLD.`id`) WHERE json_array(OLD.`id`) <> json_array(NEW.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_tags_delete` AFTER DELETE ON `tags`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'tags', json_array(OLD.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_contact_inboxes_insert` BEFORE INSERT ON `contact_inboxes`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = (SELECT `organization_id` FROM `contacts` WHERE `id` = NEW.`contact_id`)) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = (SELECT `organization_id` FROM `contacts` WHERE `id` = NEW.`contact_id`)) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES ((SELECT `organization_id` FROM `contacts` WHERE `id` = NEW.`contact_id`), 'contact_inboxes', json_array(NEW.`contact_id`, NEW.`inbox_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_contact_inboxes_update` BEFORE UPDATE OF `contact_id`, `inbox_id` ON `contact_inboxes`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = (SELECT `organization_id` FROM `contacts` WHERE `id` = NEW.`contact_id`)) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = (SELECT `organization_id` FROM `contacts` WHERE `id` = NEW.`contact_id`)) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES ((SELECT `organization_id` FROM `contacts` WHERE `id` = NEW.`contact_id`), 'contact_inboxes', json_array(NEW.`contact_id`, NEW.`inbox_id`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT (SELECT `organization_id` FROM `contacts` WHERE `id` = OLD.`contact_id`), 'contact_inboxes', json_array(OLD.`contact_id`, OLD.`inbox_id`) WHERE json_array(OLD.`contact_id`, OLD.`inbox_id`) <> json_array(NEW.`contact_id`, NEW.`inbox_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_contact_inboxes_delete` AFTER DELETE ON `contact_inboxes`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = (SELECT `organization_id` FROM `contacts` WHERE `id` = OLD.`contact_id`)) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES ((SELECT `organization_id` FROM `contacts` WHERE `id` = OLD.`contact_id`), 'contact_inboxes', json_array(OLD.`contact_id`, OLD.`inbox_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_contact_tags_insert` BEFORE INSERT ON `contact_tags`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = (SELECT `organization_id` FROM `contacts` WHERE `id` = NEW.`contact_id`)) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = (SELECT `organization_id` FROM `contacts` WHERE `id` = NEW.`contact_id`)) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES ((SELECT `organization_id` FROM `contacts` WHERE `id` = NEW.`contact_id`), 'contact_tags', json_array(NEW.`contact_id`, NEW.`tag_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_contact_tags_update` BEFORE UPDATE OF `contact_id`, `tag_id` ON `contact_tags`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = (SELECT `organization_id` FROM `contacts` WHERE `id` = NEW.`contact_id`)) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = (SELECT `organization_id` FROM `contacts` WHERE `id` = NEW.`contact_id`)) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES ((SELECT `organization_id` FROM `contacts` WHERE `id` = NEW.`contact_id`), 'contact_tags', json_array(NEW.`contact_id`, NEW.`tag_id`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT (SELECT `organization_id` FROM `contacts` WHERE `id` = OLD.`contact_id`), 'contact_tags', json_array(OLD.`contact_id`, OLD.`tag_id`) WHERE json_array(OLD.`contact_id`, OLD.`tag_id`) <> json_array(NEW.`contact_id`, NEW.`tag_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_contact_tags_delete` AFTER DELETE ON `contact_tags`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = (SELECT `organization_id` FROM `contacts` WHERE `id` = OLD.`contact_id`)) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES ((SELECT `organization_id` FROM `contacts` WHERE `id` = OLD.`contact_id`), 'contact_tags', json_array(OLD.`contact_id`, OLD.`tag_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_conversations_insert` BEFORE INSERT ON `conversations`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'conversations', json_array(NEW.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_conversations_update` BEFORE UPDATE OF `id`, `organization_id`, `inbox_id`, `contact_id`, `title`, `type`, `status`, `progress_status`, `auto_reply_enabled`, `last_message`, `last_message_at`, `unread_count`, `created_at`, `updated_at`, `created_by_id`, `is_test`, `waiting_since`, `csat_rating`, `csat_comment`, `csat_at` ON `conversations`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'conversations', json_array(NEW.`id`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'conversations', json_array(OLD.`id`) WHERE json_array(OLD.`id`) <> json_array(NEW.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_conversations_unlink` AFTER UPDATE OF `assignee_id`, `chatbot_id`, `team_id` ON `conversations`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'conversations', json_array(NEW.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_conversations_delete` AFTER DELETE ON `conversations`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'conversations', json_array(OLD.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_conversation_labels_insert` BEFORE INSERT ON `conversation_labels`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'conversation_labels', json_array(NEW.`conversation_id`, NEW.`label_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_conversation_labels_update` BEFORE UPDATE OF `conversation_id`, `label_id`, `organization_id`, `created_at` ON `conversation_labels`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'conversation_labels', json_array(NEW.`conversation_id`, NEW.`label_id`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'conversation_labels', json_array(OLD.`conversation_id`, OLD.`label_id`) WHERE json_array(OLD.`conversation_id`, OLD.`label_id`) <> json_array(NEW.`conversation_id`, NEW.`label_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_conversation_labels_delete` AFTER DELETE ON `conversation_labels`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'conversation_labels', json_array(OLD.`conversation_id`, OLD.`label_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_conversation_handoffs_insert` BEFORE INSERT ON `conversation_handoffs`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'conversation_handoffs', json_array(NEW.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_conversation_handoffs_update` BEFORE UPDATE OF `id`, `organization_id`, `conversation_id`, `inbox_id`, `chatbot_id`, `reason`, `is_test`, `queued_at`, `team_id`, `assignee_id`, `assigned_at`, `first_response_at`, `ended_at`, `resolved` ON `conversation_handoffs`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'conversation_handoffs', json_array(NEW.`id`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'conversation_handoffs', json_array(OLD.`id`) WHERE json_array(OLD.`id`) <> json_array(NEW.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_conversation_handoffs_delete` AFTER DELETE ON `conversation_handoffs`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'conversation_handoffs', json_array(OLD.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_conversation_events_insert` BEFORE INSERT ON `conversation_events`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'conversation_events', json_array(NEW.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_conversation_events_update` BEFORE UPDATE OF `id`, `organization_id`, `conversation_id`, `inbox_id`, `changes`, `reason`, `created_at` ON `conversation_events`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'conversation_events', json_array(NEW.`id`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'conversation_events', json_array(OLD.`id`) WHERE json_array(OLD.`id`) <> json_array(NEW.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_conversation_events_delete` AFTER DELETE ON `conversation_events`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'conversation_events', json_array(OLD.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_messages_insert` BEFORE INSERT ON `messages`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'messages', json_array(NEW.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_messages_update` BEFORE UPDATE OF `id`, `organization_id`, `conversation_id`, `sequence`, `type`, `sender_type`, `sender_id`, `sender_name`, `sender_avatar`, `content`, `content_payload`, `attachments`, `citations`, `citation_nodes`, `canvas`, `query_metadata`, `metadata`, `skill_ids`, `tool_ids`, `feedback`, `words_count`, `created_at`, `model_id`, `input_tokens`, `output_tokens`, `unanswered`, `private` ON `messages`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'messages', json_array(NEW.`id`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'messages', json_array(OLD.`id`) WHERE json_array(OLD.`id`) <> json_array(NEW.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_messages_delete` AFTER DELETE ON `messages`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'messages', json_array(OLD.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_channel_threads_insert` BEFORE INSERT ON `channel_threads`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'channel_threads', json_array(NEW.`inbox_id`, NEW.`thread_key`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_channel_threads_update` BEFORE UPDATE OF `inbox_id`, `thread_key`, `organization_id`, `contact_id`, `conversation_id`, `context`, `updated_at` ON `channel_threads`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'channel_threads', json_array(NEW.`inbox_id`, NEW.`thread_key`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'channel_threads', json_array(OLD.`inbox_id`, OLD.`thread_key`) WHERE json_array(OLD.`inbox_id`, OLD.`thread_key`) <> json_array(NEW.`inbox_id`, NEW.`thread_key`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_channel_threads_delete` AFTER DELETE ON `channel_threads`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'channel_threads', json_array(OLD.`inbox_id`, OLD.`thread_key`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_channel_events_insert` BEFORE INSERT ON `channel_events`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'channel_events', json_array(NEW.`inbox_id`, NEW.`event_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_channel_events_update` BEFORE UPDATE OF `inbox_id`, `event_id`, `organization_id`, `payload`, `status`, `message_id`, `attempts`, `error`, `received_at`, `thread_key`, `at` ON `channel_events`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'channel_events', json_array(NEW.`inbox_id`, NEW.`event_id`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'channel_events', json_array(OLD.`inbox_id`, OLD.`event_id`) WHERE json_array(OLD.`inbox_id`, OLD.`event_id`) <> json_array(NEW.`inbox_id`, NEW.`event_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_channel_events_delete` AFTER DELETE ON `channel_events`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'channel_events', json_array(OLD.`inbox_id`, OLD.`event_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_channel_deliveries_insert` BEFORE INSERT ON `channel_deliveries`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'channel_deliveries', json_array(NEW.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_channel_deliveries_update` BEFORE UPDATE OF `id`, `organization_id`, `inbox_id`, `conversation_id`, `message_id`, `status`, `attempts`, `next_attempt_at`, `lease_until`, `error`, `platform_message_ids`, `created_at`, `sent_at`, `shown` ON `channel_deliveries`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'channel_deliveries', json_array(NEW.`id`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'channel_deliveries', json_array(OLD.`id`) WHERE json_array(OLD.`id`) <> json_array(NEW.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_channel_deliveries_delete` AFTER DELETE ON `channel_deliveries`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'channel_deliveries', json_array(OLD.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_webhook_deliveries_insert` BEFORE INSERT ON `webhook_deliveries`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'webhook_deliveries', json_array(NEW.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_webhook_deliveries_update` BEFORE UPDATE OF `id`, `organization_id`, `webhook_id`, `inbox_id`, `message_id`, `conversation_event_id`, `conversation_id`, `event`, `status`, `attempt`, `scheduled_at`, `lease_until`, `attempts`, `url`, `request_body`, `response_status`, `response_body`, `duration_ms`, `error`, `created_at`, `delivered_at` ON `webhook_deliveries`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'webhook_deliveries', json_array(NEW.`id`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'webhook_deliveries', json_array(OLD.`id`) WHERE json_array(OLD.`id`) <> json_array(NEW.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_webhook_deliveries_unlink` AFTER UPDATE OF `chatbot_id` ON `webhook_deliveries`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'webhook_deliveries', json_array(NEW.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_webhook_deliveries_delete` AFTER DELETE ON `webhook_deliveries`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'webhook_deliveries', json_array(OLD.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_webhook_delivery_segments_insert` BEFORE INSERT ON `webhook_delivery_segments`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'webhook_delivery_segments', json_array(NEW.`key`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_webhook_delivery_segments_update` BEFORE UPDATE OF `key`, `organization_id`, `hour`, `records`, `counts`, `min_id`, `max_id`, `created_at` ON `webhook_delivery_segments`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'webhook_delivery_segments', json_array(NEW.`key`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'webhook_delivery_segments', json_array(OLD.`key`) WHERE json_array(OLD.`key`) <> json_array(NEW.`key`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_webhook_delivery_segments_delete` AFTER DELETE ON `webhook_delivery_segments`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'webhook_delivery_segments', json_array(OLD.`key`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_chatbot_records_insert` BEFORE INSERT ON `chatbot_records`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'chatbot_records', json_array(NEW.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_chatbot_records_update` BEFORE UPDATE OF `id`, `organization_id`, `chatbot_id`, `conversation_id`, `contact_id`, `reply_message_id`, `input_message`, `condense_message`, `output_message`, `context`, `reply_ms`, `error`, `created_at`, `answered_at`, `evaluation_status`, `faithfulness`, `answer_relevancy`, `context_precision`, `context_recall`, `answer_correctness`, `answer_similarity` ON `chatbot_records`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'chatbot_records', json_array(NEW.`id`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'chatbot_records', json_array(OLD.`id`) WHERE json_array(OLD.`id`) <> json_array(NEW.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_chatbot_records_delete` AFTER DELETE ON `chatbot_records`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'chatbot_records', json_array(OLD.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_chatbot_record_segments_insert` BEFORE INSERT ON `chatbot_record_segments`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'chatbot_record_segments', json_array(NEW.`key`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_chatbot_record_segments_update` BEFORE UPDATE OF `key`, `organization_id`, `chatbot_id`, `hour`, `records`, `min_created_at`, `max_created_at`, `created_at` ON `chatbot_record_segments`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'chatbot_record_segments', json_array(NEW.`key`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'chatbot_record_segments', json_array(OLD.`key`) WHERE json_array(OLD.`key`) <> json_array(NEW.`key`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_chatbot_record_segments_delete` AFTER DELETE ON `chatbot_record_segments`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'chatbot_record_segments', json_array(OLD.`key`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_chatbot_words_insert` BEFORE INSERT ON `chatbot_words`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'chatbot_words', json_array(NEW.`chatbot_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_chatbot_words_update` BEFORE UPDATE OF `chatbot_id`, `organization_id`, `words` ON `chatbot_words`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'chatbot_words', json_array(NEW.`chatbot_id`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'chatbot_words', json_array(OLD.`chatbot_id`) WHERE json_array(OLD.`chatbot_id`) <> json_array(NEW.`chatbot_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_chatbot_words_delete` AFTER DELETE ON `chatbot_words`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'chatbot_words', json_array(OLD.`chatbot_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_tool_execution_records_insert` BEFORE INSERT ON `tool_execution_records`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'tool_execution_records', json_array(NEW.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_tool_execution_records_update` BEFORE UPDATE OF `id`, `organization_id`, `chatbot_name`, `tool_name`, `tool_display_name`, `tool_type`, `conversation_id`, `message_id`, `message_text`, `call_id`, `status`, `input`, `output`, `error`, `duration_ms`, `created_at`, `updated_at` ON `tool_execution_records`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'tool_execution_records', json_array(NEW.`id`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'tool_execution_records', json_array(OLD.`id`) WHERE json_array(OLD.`id`) <> json_array(NEW.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_tool_execution_records_unlink` AFTER UPDATE OF `chatbot_id`, `tool_id` ON `tool_execution_records`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'tool_execution_records', json_array(NEW.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_tool_execution_records_delete` AFTER DELETE ON `tool_execution_records`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'tool_execution_records', json_array(OLD.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_tool_record_segments_insert` BEFORE INSERT ON `tool_record_segments`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'tool_record_segments', json_array(NEW.`key`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_tool_record_segments_update` BEFORE UPDATE OF `key`, `organization_id`, `hour`, `records`, `min_created_at`, `max_created_at`, `min_id`, `max_id`, `created_at` ON `tool_record_segments`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'tool_record_segments', json_array(NEW.`key`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'tool_record_segments', json_array(OLD.`key`) WHERE json_array(OLD.`key`) <> json_array(NEW.`key`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_tool_record_segments_unlink` AFTER UPDATE OF `chatbot_id`, `tool_id` ON `tool_record_segments`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'tool_record_segments', json_array(NEW.`key`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_tool_record_segments_delete` AFTER DELETE ON `tool_record_segments`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'tool_record_segments', json_array(OLD.`key`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_attachments_insert` BEFORE INSERT ON `attachments`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'attachments', json_array(NEW.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_attachments_update` BEFORE UPDATE OF `id`, `organization_id`, `conversation_id`, `key`, `filename`, `type`, `content_type`, `size`, `extraction_status`, `extracted_text`, `extraction_error`, `created_by`, `expires_at`, `created_at` ON `attachments`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'attachments', json_array(NEW.`id`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'attachments', json_array(OLD.`id`) WHERE json_array(OLD.`id`) <> json_array(NEW.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_attachments_delete` AFTER DELETE ON `attachments`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'attachments', json_array(OLD.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_uploads_insert` BEFORE INSERT ON `uploads`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'uploads', json_array(NEW.`key`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_uploads_update` BEFORE UPDATE OF `key`, `organization_id`, `model_name`, `field_name`, `filename`, `content_type`, `max_size`, `size`, `created_by`, `uploaded_at`, `claimed_at`, `expires_at`, `created_at` ON `uploads`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'uploads', json_array(NEW.`key`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'uploads', json_array(OLD.`key`) WHERE json_array(OLD.`key`) <> json_array(NEW.`key`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_uploads_delete` AFTER DELETE ON `uploads`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'uploads', json_array(OLD.`key`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_usage_hourly_insert` BEFORE INSERT ON `usage_hourly`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'usage_hourly', json_array(NEW.`chatbot_id`, NEW.`hour`, NEW.`member_id`, NEW.`model_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_usage_hourly_update` BEFORE UPDATE OF `organization_id`, `chatbot_id`, `hour`, `member_id`, `model_id`, `conversations`, `incoming_messages`, `outgoing_messages`, `replies`, `reply_ms`, `failed_replies`, `likes`, `dislikes`, `tool_calls`, `requests`, `input_tokens`, `output_tokens`, `words` ON `usage_hourly`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'usage_hourly', json_array(NEW.`chatbot_id`, NEW.`hour`, NEW.`member_id`, NEW.`model_id`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'usage_hourly', json_array(OLD.`chatbot_id`, OLD.`hour`, OLD.`member_id`, OLD.`model_id`) WHERE json_array(OLD.`chatbot_id`, OLD.`hour`, OLD.`member_id`, OLD.`model_id`) <> json_array(NEW.`chatbot_id`, NEW.`hour`, NEW.`member_id`, NEW.`model_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_usage_hourly_delete` AFTER DELETE ON `usage_hourly`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'usage_hourly', json_array(OLD.`chatbot_id`, OLD.`hour`, OLD.`member_id`, OLD.`model_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_usage_hourly_tests_insert` BEFORE INSERT ON `usage_hourly_tests`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'usage_hourly_tests', json_array(NEW.`chatbot_id`, NEW.`hour`, NEW.`member_id`, NEW.`model_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_usage_hourly_tests_update` BEFORE UPDATE OF `organization_id`, `chatbot_id`, `hour`, `member_id`, `model_id`, `conversations`, `incoming_messages`, `outgoing_messages`, `replies`, `reply_ms`, `failed_replies`, `likes`, `dislikes`, `tool_calls`, `requests`, `input_tokens`, `output_tokens`, `words` ON `usage_hourly_tests`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'usage_hourly_tests', json_array(NEW.`chatbot_id`, NEW.`hour`, NEW.`member_id`, NEW.`model_id`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'usage_hourly_tests', json_array(OLD.`chatbot_id`, OLD.`hour`, OLD.`member_id`, OLD.`model_id`) WHERE json_array(OLD.`chatbot_id`, OLD.`hour`, OLD.`member_id`, OLD.`model_id`) <> json_array(NEW.`chatbot_id`, NEW.`hour`, NEW.`member_id`, NEW.`model_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_usage_hourly_tests_delete` AFTER DELETE ON `usage_hourly_tests`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'usage_hourly_tests', json_array(OLD.`chatbot_id`, OLD.`hour`, OLD.`member_id`, OLD.`model_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_usage_hourly_contacts_insert` BEFORE INSERT ON `usage_hourly_contacts`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'usage_hourly_contacts', json_array(NEW.`chatbot_id`, NEW.`hour`, NEW.`contact_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_usage_hourly_contacts_update` BEFORE UPDATE OF `organization_id`, `chatbot_id`, `hour`, `contact_id` ON `usage_hourly_contacts`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'usage_hourly_contacts', json_array(NEW.`chatbot_id`, NEW.`hour`, NEW.`contact_id`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'usage_hourly_contacts', json_array(OLD.`chatbot_id`, OLD.`hour`, OLD.`contact_id`) WHERE json_array(OLD.`chatbot_id`, OLD.`hour`, OLD.`contact_id`) <> json_array(NEW.`chatbot_id`, NEW.`hour`, NEW.`contact_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_usage_hourly_contacts_delete` AFTER DELETE ON `usage_hourly_contacts`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'usage_hourly_contacts', json_array(OLD.`chatbot_id`, OLD.`hour`, OLD.`contact_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_usage_daily_members_insert` BEFORE INSERT ON `usage_daily_members`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'usage_daily_members', json_array(NEW.`organization_id`, NEW.`day`, NEW.`member_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_usage_daily_members_update` BEFORE UPDATE OF `organization_id`, `day`, `member_id`, `conversations`, `incoming_messages`, `outgoing_messages`, `replies`, `failed_replies`, `words`, `requests`, `input_tokens`, `output_tokens` ON `usage_daily_members`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'usage_daily_members', json_array(NEW.`organization_id`, NEW.`day`, NEW.`member_id`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'usage_daily_members', json_array(OLD.`organization_id`, OLD.`day`, OLD.`member_id`) WHERE json_array(OLD.`organization_id`, OLD.`day`, OLD.`member_id`) <> json_array(NEW.`organization_id`, NEW.`day`, NEW.`member_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_usage_daily_members_delete` AFTER DELETE ON `usage_daily_members`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'usage_daily_members', json_array(OLD.`organization_id`, OLD.`day`, OLD.`member_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_usage_daily_chatbots_insert` BEFORE INSERT ON `usage_daily_chatbots`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'usage_daily_chatbots', json_array(NEW.`organization_id`, NEW.`day`, NEW.`chatbot_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_usage_daily_chatbots_update` BEFORE UPDATE OF `organization_id`, `day`, `chatbot_id`, `conversations`, `incoming_messages`, `outgoing_messages`, `replies`, `failed_replies`, `words`, `requests`, `input_tokens`, `output_tokens` ON `usage_daily_chatbots`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'usage_daily_chatbots', json_array(NEW.`organization_id`, NEW.`day`, NEW.`chatbot_id`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'usage_daily_chatbots', json_array(OLD.`organization_id`, OLD.`day`, OLD.`chatbot_id`) WHERE json_array(OLD.`organization_id`, OLD.`day`, OLD.`chatbot_id`) <> json_array(NEW.`organization_id`, NEW.`day`, NEW.`chatbot_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_usage_daily_chatbots_delete` AFTER DELETE ON `usage_daily_chatbots`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'usage_daily_chatbots', json_array(OLD.`organization_id`, OLD.`day`, OLD.`chatbot_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_organization_usage_insert` BEFORE INSERT ON `organization_usage`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'organization_usage', json_array(NEW.`organization_id`, NEW.`month`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_organization_usage_update` BEFORE UPDATE OF `organization_id`, `month`, `words_count`, `conversations_count`, `uploaded_bytes` ON `organization_usage`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'organization_usage', json_array(NEW.`organization_id`, NEW.`month`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'organization_usage', json_array(OLD.`organization_id`, OLD.`month`) WHERE json_array(OLD.`organization_id`, OLD.`month`) <> json_array(NEW.`organization_id`, NEW.`month`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_organization_usage_delete` AFTER DELETE ON `organization_usage`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'organization_usage', json_array(OLD.`organization_id`, OLD.`month`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_idempotency_keys_insert` BEFORE INSERT ON `idempotency_keys`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'idempotency_keys', json_array(NEW.`owner`, NEW.`key`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_idempotency_keys_update` BEFORE UPDATE OF `organization_id`, `owner`, `key`, `request_hash`, `status`, `response`, `content_type`, `created_at` ON `idempotency_keys`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'idempotency_keys', json_array(NEW.`owner`, NEW.`key`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'idempotency_keys', json_array(OLD.`owner`, OLD.`key`) WHERE json_array(OLD.`owner`, OLD.`key`) <> json_array(NEW.`owner`, NEW.`key`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_idempotency_keys_delete` AFTER DELETE ON `idempotency_keys`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'idempotency_keys', json_array(OLD.`owner`, OLD.`key`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_purges_insert` BEFORE INSERT ON `purges`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'purges', json_array(NEW.`kind`, NEW.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `moving_purges_update` BEFORE UPDATE OF `organization_id`, `kind`, `id`, `since` ON `purges`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'purges', json_array(NEW.`kind`, NEW.`id`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'purges', json_array(OLD.`kind`, OLD.`id`) WHERE json_array(OLD.`kind`, OLD.`id`) <> json_array(NEW.`kind`, NEW.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `moving_purges_delete` AFTER DELETE ON `purges`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = OLD.`organization_id`) = 'moving' BEGIN
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (OLD.`organization_id`, 'purges', json_array(OLD.`kind`, OLD.`id`));
END;

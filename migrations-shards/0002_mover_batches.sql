-- The mover's marker and the four triggers standing aside for its copies, as `DB` has them (migration 0043).
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

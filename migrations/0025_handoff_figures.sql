-- The stretches with people (conversation_handoffs, the human side's figures) kept by triggers, so
-- that every path that changes a conversation (the web API, channels, the assistant's handoff,
-- operators, auto-assignment) feeds them without code of its own (docs/decisions.md, "Handoff
-- stretches by triggers"). A stretch opens when the conversation comes to people (status `queued`,
-- or progress `waiting_for_human` / `human_serving`; a takeover without a queue opens one at the
-- takeover, reason `operator`), follows its team and assignee (assignedAt: the first assignment),
-- takes the first public message of a member as its first response, and ends when the conversation
-- leaves people (resolved, or handed back to the assistant). Times: the conversation's updated_at as
-- written with the change (the app's clock, as messages' created_at), else SQLite's clock.
CREATE TRIGGER `handoffs_on_conversation` AFTER UPDATE OF `status`, `progress_status`, `assignee_id`, `team_id` ON `conversations`
WHEN NEW.`status` IS NOT OLD.`status` OR NEW.`progress_status` IS NOT OLD.`progress_status` OR NEW.`assignee_id` IS NOT OLD.`assignee_id` OR NEW.`team_id` IS NOT OLD.`team_id` BEGIN
	UPDATE `conversation_handoffs`
	SET `ended_at` = max(CASE WHEN NEW.`updated_at` > OLD.`updated_at` THEN NEW.`updated_at` ELSE CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) END, `queued_at`),
		`resolved` = NEW.`status` = 'resolved'
	WHERE `conversation_id` = NEW.`id` AND `ended_at` IS NULL
		AND NOT (NEW.`status` = 'queued' OR NEW.`progress_status` IN ('waiting_for_human', 'human_serving'));
	-- The reason: the assistant's, when its handoff message is the newest message (written in the
	-- same batch, just before); else an operator's (auto reply off, a takeover, a member's reply).
	-- A member's public reply that brings the conversation to people is its first response.
	INSERT INTO `conversation_handoffs` (`id`, `organization_id`, `conversation_id`, `inbox_id`, `chatbot_id`, `reason`, `is_test`, `queued_at`, `team_id`, `assignee_id`, `assigned_at`, `first_response_at`, `ended_at`, `resolved`)
	SELECT lower(substr(printf('%012x', x.`at`), 1, 8) || '-' || substr(printf('%012x', x.`at`), 9, 4) || '-7' || substr(hex(randomblob(2)), 2) || '-' ||
			substr('89ab', 1 + (random() & 3), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
		NEW.`organization_id`, NEW.`id`, NEW.`inbox_id`, NEW.`chatbot_id`, coalesce(x.`reason`, 'operator'), NEW.`is_test`, x.`at`,
		NEW.`team_id`, NEW.`assignee_id`, CASE WHEN NEW.`assignee_id` IS NOT NULL THEN x.`at` END, x.`response_at`, NULL, 0
	FROM (
		SELECT min(t.`now`, coalesce(t.`response_at`, t.`now`)) AS `at`, t.`response_at`, t.`reason`
		FROM (
			SELECT CASE WHEN NEW.`updated_at` > OLD.`updated_at` THEN NEW.`updated_at` ELSE CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) END AS `now`,
				CASE WHEN m.`sender_type` = 'user' AND m.`type` = 'outgoing' AND m.`private` = 0 THEN m.`created_at` END AS `response_at`,
				CASE WHEN m.`sender_type` = 'chatbot' AND json_valid(m.`content_payload`)
					AND json_extract(m.`content_payload`, '$.handoff.reason') IN ('visitor_request', 'unanswered', 'tool')
					THEN json_extract(m.`content_payload`, '$.handoff.reason') END AS `reason`
			-- Only a message after the previous stretch ended: one of that stretch is not this one's.
			FROM (SELECT 1) LEFT JOIN (SELECT * FROM `messages` WHERE `conversation_id` = NEW.`id` ORDER BY `sequence` DESC LIMIT 1) m
				ON m.`created_at` > coalesce((SELECT max(h.`ended_at`) FROM `conversation_handoffs` h WHERE h.`conversation_id` = NEW.`id`), 0)
		) t
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
-- A member's first public message in an open stretch is its first response (private notes are not).
CREATE TRIGGER `handoffs_on_message` AFTER INSERT ON `messages`
WHEN NEW.`sender_type` = 'user' AND NEW.`type` = 'outgoing' AND NEW.`private` = 0 BEGIN
	UPDATE `conversation_handoffs` SET `first_response_at` = max(NEW.`created_at`, `queued_at`)
	WHERE `conversation_id` = NEW.`conversation_id` AND `ended_at` IS NULL AND `first_response_at` IS NULL;
END;
--> statement-breakpoint
-- An assistant's handoff on a conversation's first turn: the conversation is inserted already queued
-- (its messages follow in the same batch), so the stretch opens here and takes its reason from the
-- handoff message below.
CREATE TRIGGER `handoffs_on_new_conversation` AFTER INSERT ON `conversations`
WHEN NEW.`status` = 'queued' OR NEW.`progress_status` IN ('waiting_for_human', 'human_serving') BEGIN
	INSERT INTO `conversation_handoffs` (`id`, `organization_id`, `conversation_id`, `inbox_id`, `chatbot_id`, `reason`, `is_test`, `queued_at`, `team_id`, `assignee_id`, `assigned_at`, `first_response_at`, `ended_at`, `resolved`)
	VALUES (lower(substr(printf('%012x', NEW.`created_at`), 1, 8) || '-' || substr(printf('%012x', NEW.`created_at`), 9, 4) || '-7' || substr(hex(randomblob(2)), 2) || '-' ||
			substr('89ab', 1 + (random() & 3), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
		NEW.`organization_id`, NEW.`id`, NEW.`inbox_id`, NEW.`chatbot_id`, 'operator', NEW.`is_test`, NEW.`created_at`,
		NEW.`team_id`, NEW.`assignee_id`, CASE WHEN NEW.`assignee_id` IS NOT NULL THEN NEW.`created_at` END, NULL, NULL, 0);
END;
--> statement-breakpoint
-- The assistant's handoff message landing in a stretch no one has touched yet opened it: its reason.
CREATE TRIGGER `handoffs_on_handoff_message` AFTER INSERT ON `messages`
WHEN NEW.`sender_type` = 'chatbot' AND json_valid(NEW.`content_payload`)
	AND json_extract(NEW.`content_payload`, '$.handoff.reason') IN ('visitor_request', 'unanswered', 'tool') BEGIN
	UPDATE `conversation_handoffs` SET `reason` = json_extract(NEW.`content_payload`, '$.handoff.reason')
	WHERE `conversation_id` = NEW.`conversation_id` AND `ended_at` IS NULL AND `reason` = 'operator'
		AND `assigned_at` IS NULL AND `first_response_at` IS NULL;
END;

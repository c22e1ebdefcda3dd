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
	`answer_similarity` real,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chatbot_records_chatbot_idx` ON `chatbot_records` (`chatbot_id`,`created_at`);--> statement-breakpoint
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
	PRIMARY KEY(`chatbot_id`, `hour`, `member_id`, `model_id`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `usage_hourly_org_idx` ON `usage_hourly` (`organization_id`,`hour`);--> statement-breakpoint
CREATE TABLE `usage_hourly_contacts` (
	`organization_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`hour` integer NOT NULL,
	`contact_id` text NOT NULL,
	PRIMARY KEY(`chatbot_id`, `hour`, `contact_id`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `conversations` ADD `created_by_id` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `model_id` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `input_tokens` integer;--> statement-breakpoint
ALTER TABLE `messages` ADD `output_tokens` integer;--> statement-breakpoint
-- Statistics counters (CONTRACT section 13; src/db/schema/statistics.ts). drizzle-kit does not model
-- triggers: this file is their only definition. Every counter is written by the statement that
-- stores what it counts, so no message exists without its counts and no request scans messages.
-- A reply's record is keyed by the question it answers (the latest incoming message before it);
-- its reply time is the time between the two messages.
CREATE TRIGGER `usage_on_message` AFTER INSERT ON `messages` BEGIN
	INSERT INTO `chatbot_records` (`id`, `organization_id`, `chatbot_id`, `conversation_id`, `contact_id`, `reply_message_id`, `input_message`, `output_message`, `context`, `reply_ms`, `error`, `created_at`, `answered_at`, `evaluation_status`)
	SELECT i.`id`, c.`organization_id`, c.`chatbot_id`, c.`id`, c.`contact_id`, NEW.`id`, i.`content`, NEW.`content`, NEW.`citation_nodes`, NEW.`created_at` - i.`created_at`, NULL, i.`created_at`, NEW.`created_at`,
		CASE WHEN b.`enable_evaluation` THEN 'pending' END
	FROM `conversations` c
	JOIN `messages` i ON i.`id` = (SELECT m.`id` FROM `messages` m WHERE m.`conversation_id` = NEW.`conversation_id` AND m.`sequence` < NEW.`sequence` AND m.`type` = 'incoming' ORDER BY m.`sequence` DESC LIMIT 1)
	LEFT JOIN `chatbots` b ON b.`id` = c.`chatbot_id`
	WHERE NEW.`sender_type` = 'chatbot' AND c.`id` = NEW.`conversation_id` AND c.`chatbot_id` IS NOT NULL
	ON CONFLICT (`id`) DO UPDATE SET `reply_message_id` = excluded.`reply_message_id`, `output_message` = excluded.`output_message`, `context` = excluded.`context`,
		`reply_ms` = excluded.`reply_ms`, `error` = NULL, `answered_at` = excluded.`answered_at`, `evaluation_status` = excluded.`evaluation_status`;
	INSERT INTO `usage_hourly` (`organization_id`, `chatbot_id`, `hour`, `member_id`, `model_id`, `incoming_messages`, `outgoing_messages`, `replies`, `reply_ms`, `tool_calls`, `requests`, `input_tokens`, `output_tokens`, `words`, `likes`, `dislikes`)
	SELECT c.`organization_id`, c.`chatbot_id`, NEW.`created_at` - NEW.`created_at` % 3600000, coalesce(c.`created_by_id`, ''),
		CASE WHEN NEW.`sender_type` = 'chatbot' THEN coalesce(NEW.`model_id`, b.`large_language_model_id`, '') ELSE '' END,
		NEW.`type` = 'incoming', NEW.`type` = 'outgoing', NEW.`sender_type` = 'chatbot',
		CASE WHEN NEW.`sender_type` = 'chatbot' THEN coalesce(NEW.`created_at` - (SELECT m.`created_at` FROM `messages` m WHERE m.`conversation_id` = NEW.`conversation_id` AND m.`sequence` < NEW.`sequence` AND m.`type` = 'incoming' ORDER BY m.`sequence` DESC LIMIT 1), 0) ELSE 0 END,
		CASE WHEN NEW.`sender_type` = 'chatbot' AND json_valid(NEW.`content_payload`) THEN coalesce(json_array_length(NEW.`content_payload`, '$.toolCalls'), 0) ELSE 0 END,
		NEW.`sender_type` = 'chatbot', coalesce(NEW.`input_tokens`, 0), coalesce(NEW.`output_tokens`, 0), NEW.`words_count`,
		NEW.`feedback` IS 'like', NEW.`feedback` IS 'dislike'
	FROM `conversations` c LEFT JOIN `chatbots` b ON b.`id` = c.`chatbot_id`
	WHERE c.`id` = NEW.`conversation_id` AND c.`chatbot_id` IS NOT NULL
	ON CONFLICT (`chatbot_id`, `hour`, `member_id`, `model_id`) DO UPDATE SET
		`incoming_messages` = `incoming_messages` + excluded.`incoming_messages`, `outgoing_messages` = `outgoing_messages` + excluded.`outgoing_messages`,
		`replies` = `replies` + excluded.`replies`, `reply_ms` = `reply_ms` + excluded.`reply_ms`, `tool_calls` = `tool_calls` + excluded.`tool_calls`,
		`requests` = `requests` + excluded.`requests`, `input_tokens` = `input_tokens` + excluded.`input_tokens`,
		`output_tokens` = `output_tokens` + excluded.`output_tokens`, `words` = `words` + excluded.`words`,
		`likes` = `likes` + excluded.`likes`, `dislikes` = `dislikes` + excluded.`dislikes`;
	INSERT OR IGNORE INTO `usage_hourly_contacts` (`organization_id`, `chatbot_id`, `hour`, `contact_id`)
	SELECT c.`organization_id`, c.`chatbot_id`, NEW.`created_at` - NEW.`created_at` % 3600000, c.`contact_id` FROM `conversations` c
	WHERE NEW.`type` = 'incoming' AND c.`id` = NEW.`conversation_id` AND c.`chatbot_id` IS NOT NULL AND c.`contact_id` IS NOT NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `usage_on_conversation` AFTER INSERT ON `conversations` WHEN NEW.`chatbot_id` IS NOT NULL BEGIN
	INSERT INTO `usage_hourly` (`organization_id`, `chatbot_id`, `hour`, `member_id`, `model_id`, `conversations`)
	VALUES (NEW.`organization_id`, NEW.`chatbot_id`, NEW.`created_at` - NEW.`created_at` % 3600000, coalesce(NEW.`created_by_id`, ''), '', 1)
	ON CONFLICT (`chatbot_id`, `hour`, `member_id`, `model_id`) DO UPDATE SET `conversations` = `conversations` + 1;
END;
--> statement-breakpoint
-- Feedback counts in the hour (and model row) of the message it rates; changing or taking it back moves the counts.
CREATE TRIGGER `usage_on_feedback` AFTER UPDATE OF `feedback` ON `messages` WHEN NEW.`feedback` IS NOT OLD.`feedback` BEGIN
	INSERT INTO `usage_hourly` (`organization_id`, `chatbot_id`, `hour`, `member_id`, `model_id`, `likes`, `dislikes`)
	SELECT c.`organization_id`, c.`chatbot_id`, NEW.`created_at` - NEW.`created_at` % 3600000, coalesce(c.`created_by_id`, ''),
		CASE WHEN NEW.`sender_type` = 'chatbot' THEN coalesce(NEW.`model_id`, b.`large_language_model_id`, '') ELSE '' END,
		(NEW.`feedback` IS 'like') - (OLD.`feedback` IS 'like'), (NEW.`feedback` IS 'dislike') - (OLD.`feedback` IS 'dislike')
	FROM `conversations` c LEFT JOIN `chatbots` b ON b.`id` = c.`chatbot_id` WHERE c.`id` = NEW.`conversation_id` AND c.`chatbot_id` IS NOT NULL
	ON CONFLICT (`chatbot_id`, `hour`, `member_id`, `model_id`) DO UPDATE SET `likes` = `likes` + excluded.`likes`, `dislikes` = `dislikes` + excluded.`dislikes`;
END;
--> statement-breakpoint
-- Backfill: the counters and records of everything stored before this migration, as the triggers
-- would have written them (older rows have no member, tokens or failures; their model is the
-- assistant's current one). test/routes/statistics/backfill.test.ts runs these statements again.
INSERT INTO `usage_hourly` (`organization_id`, `chatbot_id`, `hour`, `member_id`, `model_id`, `conversations`)
SELECT `organization_id`, `chatbot_id`, `created_at` - `created_at` % 3600000, coalesce(`created_by_id`, ''), '', count(*) FROM `conversations`
WHERE `chatbot_id` IS NOT NULL GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO `usage_hourly` (`organization_id`, `chatbot_id`, `hour`, `member_id`, `model_id`, `incoming_messages`, `outgoing_messages`, `replies`, `reply_ms`, `likes`, `dislikes`, `tool_calls`, `requests`, `input_tokens`, `output_tokens`, `words`)
SELECT c.`organization_id`, c.`chatbot_id`, m.`created_at` - m.`created_at` % 3600000, coalesce(c.`created_by_id`, ''),
	CASE WHEN m.`sender_type` = 'chatbot' THEN coalesce(m.`model_id`, b.`large_language_model_id`, '') ELSE '' END,
	sum(m.`type` = 'incoming'), sum(m.`type` = 'outgoing'), sum(m.`sender_type` = 'chatbot'),
	sum(CASE WHEN m.`sender_type` = 'chatbot' THEN coalesce(m.`created_at` - (SELECT p.`created_at` FROM `messages` p WHERE p.`conversation_id` = m.`conversation_id` AND p.`sequence` < m.`sequence` AND p.`type` = 'incoming' ORDER BY p.`sequence` DESC LIMIT 1), 0) ELSE 0 END),
	sum(m.`feedback` IS 'like'), sum(m.`feedback` IS 'dislike'),
	sum(CASE WHEN m.`sender_type` = 'chatbot' AND json_valid(m.`content_payload`) THEN coalesce(json_array_length(m.`content_payload`, '$.toolCalls'), 0) ELSE 0 END),
	sum(m.`sender_type` = 'chatbot'), sum(coalesce(m.`input_tokens`, 0)), sum(coalesce(m.`output_tokens`, 0)), sum(m.`words_count`)
FROM `messages` m JOIN `conversations` c ON c.`id` = m.`conversation_id` LEFT JOIN `chatbots` b ON b.`id` = c.`chatbot_id`
WHERE c.`chatbot_id` IS NOT NULL GROUP BY 1, 2, 3, 4, 5
ON CONFLICT (`chatbot_id`, `hour`, `member_id`, `model_id`) DO UPDATE SET
	`incoming_messages` = `incoming_messages` + excluded.`incoming_messages`, `outgoing_messages` = `outgoing_messages` + excluded.`outgoing_messages`,
	`replies` = `replies` + excluded.`replies`, `reply_ms` = `reply_ms` + excluded.`reply_ms`, `likes` = `likes` + excluded.`likes`,
	`dislikes` = `dislikes` + excluded.`dislikes`, `tool_calls` = `tool_calls` + excluded.`tool_calls`, `requests` = `requests` + excluded.`requests`,
	`input_tokens` = `input_tokens` + excluded.`input_tokens`, `output_tokens` = `output_tokens` + excluded.`output_tokens`, `words` = `words` + excluded.`words`;
--> statement-breakpoint
INSERT OR IGNORE INTO `usage_hourly_contacts` (`organization_id`, `chatbot_id`, `hour`, `contact_id`)
SELECT DISTINCT c.`organization_id`, c.`chatbot_id`, m.`created_at` - m.`created_at` % 3600000, c.`contact_id`
FROM `messages` m JOIN `conversations` c ON c.`id` = m.`conversation_id`
WHERE m.`type` = 'incoming' AND c.`chatbot_id` IS NOT NULL AND c.`contact_id` IS NOT NULL;
--> statement-breakpoint
INSERT OR IGNORE INTO `chatbot_records` (`id`, `organization_id`, `chatbot_id`, `conversation_id`, `contact_id`, `reply_message_id`, `input_message`, `output_message`, `context`, `reply_ms`, `created_at`, `answered_at`)
SELECT i.`id`, c.`organization_id`, c.`chatbot_id`, c.`id`, c.`contact_id`, r.`id`, i.`content`, r.`content`, r.`citation_nodes`, r.`created_at` - i.`created_at`, i.`created_at`, r.`created_at`
FROM `messages` r JOIN `conversations` c ON c.`id` = r.`conversation_id`
JOIN `messages` i ON i.`id` = (SELECT p.`id` FROM `messages` p WHERE p.`conversation_id` = r.`conversation_id` AND p.`sequence` < r.`sequence` AND p.`type` = 'incoming' ORDER BY p.`sequence` DESC LIMIT 1)
WHERE r.`sender_type` = 'chatbot' AND c.`chatbot_id` IS NOT NULL;
--> statement-breakpoint
-- An assistant's records go with it; its counters stay, as the organization's and its members' history.
CREATE TRIGGER `chatbot_records_on_chatbot_delete` AFTER DELETE ON `chatbots` BEGIN
	DELETE FROM `chatbot_records` WHERE `chatbot_id` = OLD.`id`;
END;

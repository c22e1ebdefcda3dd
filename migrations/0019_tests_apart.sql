-- Test conversations apart (docs/decisions.md, "Test traffic apart"): conversations.is_test, and the
-- counters of test conversations kept apart in usage_hourly_tests by the triggers below.
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
	PRIMARY KEY(`chatbot_id`, `hour`, `member_id`, `model_id`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `conversations` ADD `is_test` integer DEFAULT false NOT NULL;
--> statement-breakpoint
-- Test conversations (`is_test`, the console's try-it) are counted in usage_hourly as every
-- conversation is (words, tokens and quotas were spent), and again in usage_hourly_tests, which an
-- assistant's statistics subtract unless asked to include tests (docs/decisions.md, "Test traffic
-- apart"). These triggers mirror usage_on_message, usage_on_conversation and usage_on_feedback
-- (migration 0009) for those conversations only; failed replies: failedReplyWrites.
CREATE TRIGGER `usage_tests_on_message` AFTER INSERT ON `messages`
WHEN EXISTS (SELECT 1 FROM `conversations` WHERE `id` = NEW.`conversation_id` AND `is_test` = 1) BEGIN
	INSERT INTO `usage_hourly_tests` (`organization_id`, `chatbot_id`, `hour`, `member_id`, `model_id`, `incoming_messages`, `outgoing_messages`, `replies`, `reply_ms`, `tool_calls`, `requests`, `input_tokens`, `output_tokens`, `words`, `likes`, `dislikes`)
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
END;
--> statement-breakpoint
CREATE TRIGGER `usage_tests_on_conversation` AFTER INSERT ON `conversations` WHEN NEW.`chatbot_id` IS NOT NULL AND NEW.`is_test` = 1 BEGIN
	INSERT INTO `usage_hourly_tests` (`organization_id`, `chatbot_id`, `hour`, `member_id`, `model_id`, `conversations`)
	VALUES (NEW.`organization_id`, NEW.`chatbot_id`, NEW.`created_at` - NEW.`created_at` % 3600000, coalesce(NEW.`created_by_id`, ''), '', 1)
	ON CONFLICT (`chatbot_id`, `hour`, `member_id`, `model_id`) DO UPDATE SET `conversations` = `conversations` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `usage_tests_on_feedback` AFTER UPDATE OF `feedback` ON `messages`
WHEN NEW.`feedback` IS NOT OLD.`feedback` AND EXISTS (SELECT 1 FROM `conversations` WHERE `id` = NEW.`conversation_id` AND `is_test` = 1) BEGIN
	INSERT INTO `usage_hourly_tests` (`organization_id`, `chatbot_id`, `hour`, `member_id`, `model_id`, `likes`, `dislikes`)
	SELECT c.`organization_id`, c.`chatbot_id`, NEW.`created_at` - NEW.`created_at` % 3600000, coalesce(c.`created_by_id`, ''),
		CASE WHEN NEW.`sender_type` = 'chatbot' THEN coalesce(NEW.`model_id`, b.`large_language_model_id`, '') ELSE '' END,
		(NEW.`feedback` IS 'like') - (OLD.`feedback` IS 'like'), (NEW.`feedback` IS 'dislike') - (OLD.`feedback` IS 'dislike')
	FROM `conversations` c LEFT JOIN `chatbots` b ON b.`id` = c.`chatbot_id` WHERE c.`id` = NEW.`conversation_id` AND c.`chatbot_id` IS NOT NULL
	ON CONFLICT (`chatbot_id`, `hour`, `member_id`, `model_id`) DO UPDATE SET `likes` = `likes` + excluded.`likes`, `dislikes` = `dislikes` + excluded.`dislikes`;
END;

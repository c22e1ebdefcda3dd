-- DB's migrations/0049_conversation_list_indexes.sql in the shards (test/db/shard-schema.test.ts compares them).
DROP INDEX `conversations_waiting_idx`;--> statement-breakpoint
DROP INDEX `conversations_inbox_idx`;--> statement-breakpoint
DROP INDEX `conversations_contact_idx`;--> statement-breakpoint
CREATE INDEX `conversations_status_idx` ON `conversations` (`organization_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `conversations_chatbot_idx` ON `conversations` (`organization_id`,`chatbot_id`,`id`);--> statement-breakpoint
CREATE INDEX `conversations_progress_idx` ON `conversations` (`organization_id`,`progress_status`,`id`);--> statement-breakpoint
CREATE INDEX `conversations_team_idx` ON `conversations` (`organization_id`,`team_id`,`id`);--> statement-breakpoint
CREATE INDEX `conversations_test_idx` ON `conversations` (`organization_id`,`is_test`,`id`);--> statement-breakpoint
CREATE INDEX `conversations_inbox_idx` ON `conversations` (`inbox_id`,`id`);--> statement-breakpoint
CREATE INDEX `conversations_contact_idx` ON `conversations` (`contact_id`,`created_at`);--> statement-breakpoint
DROP INDEX `conversation_labels_label_idx`;--> statement-breakpoint
CREATE INDEX `conversation_labels_label_idx` ON `conversation_labels` (`label_id`,`conversation_id`);
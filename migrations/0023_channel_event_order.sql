ALTER TABLE `channel_events` ADD `thread_key` text;--> statement-breakpoint
ALTER TABLE `channel_events` ADD `at` integer;--> statement-breakpoint
CREATE INDEX `channel_events_chat_idx` ON `channel_events` (`inbox_id`,`thread_key`,`status`);
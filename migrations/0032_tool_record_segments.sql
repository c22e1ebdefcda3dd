-- Finished tool execution records leave tool_execution_records for R2 (services/tools/record-segments.ts): a row
-- per segment object, inserted in the batch that deletes the rows it holds; the housekeeping picks the oldest first.
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
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`tool_id`) REFERENCES `tools`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `tool_record_segments_org_idx` ON `tool_record_segments` (`organization_id`,`max_created_at`);--> statement-breakpoint
CREATE INDEX `tool_record_segments_id_idx` ON `tool_record_segments` (`organization_id`,`min_id`);--> statement-breakpoint
CREATE INDEX `tool_record_segments_chatbot_idx` ON `tool_record_segments` (`chatbot_id`);--> statement-breakpoint
CREATE INDEX `tool_record_segments_tool_idx` ON `tool_record_segments` (`tool_id`,`max_created_at`);--> statement-breakpoint
CREATE INDEX `tool_execution_records_created_idx` ON `tool_execution_records` (`created_at`);
-- Settled chatbot records leave chatbot_records for R2 (services/statistics/record-segments.ts): a row per segment
-- object, inserted in the batch that deletes the rows it holds; the housekeeping picks the oldest records first.
CREATE TABLE `chatbot_record_segments` (
	`key` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`hour` integer NOT NULL,
	`records` integer NOT NULL,
	`min_created_at` integer NOT NULL,
	`max_created_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chatbot_record_segments_hour_idx` ON `chatbot_record_segments` (`chatbot_id`,`hour`);--> statement-breakpoint
CREATE INDEX `chatbot_records_created_idx` ON `chatbot_records` (`created_at`);
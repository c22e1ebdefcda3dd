-- Ended webhook deliveries leave webhook_deliveries for R2 (services/webhooks/segments.ts): a row per segment
-- object, inserted in the batch that deletes the rows it holds.
CREATE TABLE `webhook_delivery_segments` (
	`key` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`hour` integer NOT NULL,
	`records` integer NOT NULL,
	`counts` text NOT NULL,
	`min_id` text NOT NULL,
	`max_id` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_delivery_segments_hour_idx` ON `webhook_delivery_segments` (`organization_id`,`hour`);--> statement-breakpoint
CREATE INDEX `webhook_delivery_segments_id_idx` ON `webhook_delivery_segments` (`organization_id`,`min_id`);
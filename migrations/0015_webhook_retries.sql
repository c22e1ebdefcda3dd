DROP INDEX `webhook_deliveries_message_webhook_uq`;--> statement-breakpoint
DROP INDEX `webhook_deliveries_pending_idx`;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `attempt` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `scheduled_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_attempt_uq` ON `webhook_deliveries` (`message_id`,`webhook_id`,`attempt`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_pending_idx` ON `webhook_deliveries` (`status`,`scheduled_at`);--> statement-breakpoint
ALTER TABLE `webhooks` ADD `retry_failed_deliveries` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `failing_since` integer;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `disabled_at` integer;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `disabled_reason` text;--> statement-breakpoint
-- Attempts recorded before retries existed were due when created.
UPDATE `webhook_deliveries` SET `scheduled_at` = `created_at`;
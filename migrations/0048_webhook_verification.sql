ALTER TABLE `inbox_channels` ADD `webhook_verified_at` integer;--> statement-breakpoint
ALTER TABLE `inbox_channels` ADD `webhook_refused_at` integer;--> statement-breakpoint
ALTER TABLE `inbox_channels` ADD `webhook_refusal` text;
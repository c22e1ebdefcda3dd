DROP INDEX `chatbots_org_idx`;--> statement-breakpoint
CREATE INDEX `chatbots_org_created_idx` ON `chatbots` (`organization_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `chatbots_personal_idx` ON `chatbots` (`created_by_id`,`created_at`,`id`) WHERE "chatbots"."organization_id" is null;
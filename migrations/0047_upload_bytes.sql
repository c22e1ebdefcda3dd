-- What an organization's uploads store is summed from the uploads rows (src/services/uploads/allowance.ts): the
-- index carries the size, and a channel's media, stored with an attachment and no upload row before, get theirs.
DROP INDEX `uploads_org_idx`;--> statement-breakpoint
CREATE INDEX `uploads_org_idx` ON `uploads` (`organization_id`,`size`);--> statement-breakpoint
INSERT OR IGNORE INTO `uploads` (`key`, `organization_id`, `model_name`, `field_name`, `filename`, `content_type`, `max_size`, `size`, `uploaded_at`, `claimed_at`, `created_at`)
SELECT a.`key`, a.`organization_id`, 'attachment', 'file', min(a.`filename`), min(a.`content_type`), max(a.`size`), max(a.`size`), min(a.`created_at`), min(a.`created_at`), min(a.`created_at`)
FROM `attachments` a WHERE NOT EXISTS (SELECT 1 FROM `uploads` u WHERE u.`key` = a.`key`) GROUP BY a.`key`, a.`organization_id`;

CREATE TABLE `attachments` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`conversation_id` text,
	`key` text NOT NULL,
	`filename` text NOT NULL,
	`type` text NOT NULL,
	`content_type` text DEFAULT 'application/octet-stream' NOT NULL,
	`size` integer DEFAULT 0 NOT NULL,
	`extraction_status` text DEFAULT 'none' NOT NULL,
	`extracted_text` text,
	`extraction_error` text,
	`created_by` text,
	`expires_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `attachments_org_idx` ON `attachments` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `attachments_conversation_idx` ON `attachments` (`conversation_id`);--> statement-breakpoint
CREATE INDEX `attachments_key_idx` ON `attachments` (`key`);--> statement-breakpoint
CREATE INDEX `attachments_expiry_idx` ON `attachments` (`expires_at`);--> statement-breakpoint
CREATE TABLE `uploads` (
	`key` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`model_name` text NOT NULL,
	`field_name` text NOT NULL,
	`filename` text NOT NULL,
	`content_type` text,
	`max_size` integer NOT NULL,
	`size` integer,
	`created_by` text,
	`uploaded_at` integer,
	`claimed_at` integer,
	`expires_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `uploads_org_idx` ON `uploads` (`organization_id`);--> statement-breakpoint
CREATE INDEX `uploads_expiry_idx` ON `uploads` (`claimed_at`,`expires_at`);
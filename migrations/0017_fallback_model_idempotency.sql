CREATE TABLE `idempotency_keys` (
	`organization_id` text NOT NULL,
	`owner` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`status` integer,
	`response` text,
	`content_type` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`owner`, `key`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_idx` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
ALTER TABLE `chatbots` ADD `fallback_large_language_model_id` text REFERENCES models(id);
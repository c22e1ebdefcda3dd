CREATE TABLE `console_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`organization_id` text,
	`token_hash` text NOT NULL,
	`method` text NOT NULL,
	`user_agent` text,
	`last_used_at` integer NOT NULL,
	`revoked_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `console_sessions_token_hash_unique` ON `console_sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `console_sessions_user_idx` ON `console_sessions` (`user_id`);
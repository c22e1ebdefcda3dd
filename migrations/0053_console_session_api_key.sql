-- A console session signed in with an API key names its key, so revoking the key ends it and its expiry ends it
-- (src/services/console-sessions.ts). Sessions signed in with a key before this keep lapsing 12 hours after last use.
ALTER TABLE `console_sessions` ADD `api_key_id` text;--> statement-breakpoint
ALTER TABLE `console_sessions` ADD `key_expires_at` integer;--> statement-breakpoint
CREATE INDEX `console_sessions_api_key_idx` ON `console_sessions` (`api_key_id`);
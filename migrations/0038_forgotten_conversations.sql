CREATE TABLE `forgotten_conversations` (
	`conversation_id` text PRIMARY KEY NOT NULL,
	`forgotten_at` integer NOT NULL
);

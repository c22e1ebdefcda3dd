ALTER TABLE `chatbots` ADD `handoff` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `unanswered` integer DEFAULT false NOT NULL;
-- An assistant's word count leaves `chatbots` (configuration, the control plane) for the organization's data plane,
-- which the message's batch then writes alone (docs/scale.md §5 step 4). `chatbots.total_words_count` stays, unused.
CREATE TABLE `chatbot_words` (
	`chatbot_id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`words` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);--> statement-breakpoint
INSERT INTO `chatbot_words` (`chatbot_id`, `organization_id`, `words`)
SELECT `id`, `organization_id`, `total_words_count` FROM `chatbots` WHERE `total_words_count` > 0;

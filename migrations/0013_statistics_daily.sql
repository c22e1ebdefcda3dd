CREATE TABLE `usage_daily_chatbots` (
	`organization_id` text NOT NULL,
	`day` integer NOT NULL,
	`chatbot_id` text NOT NULL,
	`conversations` integer DEFAULT 0 NOT NULL,
	`incoming_messages` integer DEFAULT 0 NOT NULL,
	`outgoing_messages` integer DEFAULT 0 NOT NULL,
	`replies` integer DEFAULT 0 NOT NULL,
	`failed_replies` integer DEFAULT 0 NOT NULL,
	`words` integer DEFAULT 0 NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`input_tokens` integer DEFAULT 0 NOT NULL,
	`output_tokens` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`organization_id`, `day`, `chatbot_id`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `usage_daily_members` (
	`organization_id` text NOT NULL,
	`day` integer NOT NULL,
	`member_id` text NOT NULL,
	`conversations` integer DEFAULT 0 NOT NULL,
	`incoming_messages` integer DEFAULT 0 NOT NULL,
	`outgoing_messages` integer DEFAULT 0 NOT NULL,
	`replies` integer DEFAULT 0 NOT NULL,
	`failed_replies` integer DEFAULT 0 NOT NULL,
	`words` integer DEFAULT 0 NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`input_tokens` integer DEFAULT 0 NOT NULL,
	`output_tokens` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`organization_id`, `day`, `member_id`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `usage_rollup` (
	`id` text PRIMARY KEY NOT NULL,
	`through` integer NOT NULL
);

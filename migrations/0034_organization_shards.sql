-- Which organization shard (`CONVERSATIONS_n`) holds an organization's conversation search terms, and a move of
-- them to another shard under way (services/shards; docs/decisions.md, "Organization shards").
CREATE TABLE `organization_shards` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`shard` text NOT NULL,
	`moving_to` text,
	`moving_from` text,
	`cursor` text,
	`since` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);

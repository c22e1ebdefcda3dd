CREATE TABLE `organization_parts` (
	`organization_id` text NOT NULL,
	`from_ms` integer NOT NULL,
	`shard` text NOT NULL,
	PRIMARY KEY(`organization_id`, `from_ms`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);

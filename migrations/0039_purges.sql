CREATE TABLE `purges` (
	`organization_id` text,
	`kind` text NOT NULL,
	`id` text NOT NULL,
	`since` integer NOT NULL,
	PRIMARY KEY(`kind`, `id`)
);

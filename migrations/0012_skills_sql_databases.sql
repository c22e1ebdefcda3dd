CREATE TABLE `chatbot_skills` (
	`chatbot_id` text NOT NULL,
	`skill_id` text NOT NULL,
	PRIMARY KEY(`chatbot_id`, `skill_id`),
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`skill_id`) REFERENCES `skills`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chatbot_skills_skill_idx` ON `chatbot_skills` (`skill_id`);--> statement-breakpoint
CREATE TABLE `skill_groups` (
	`skill_id` text NOT NULL,
	`group_id` text NOT NULL,
	PRIMARY KEY(`skill_id`, `group_id`),
	FOREIGN KEY (`skill_id`) REFERENCES `skills`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `skill_groups_group_idx` ON `skill_groups` (`group_id`);--> statement-breakpoint
CREATE TABLE `skill_resources` (
	`id` text PRIMARY KEY NOT NULL,
	`skill_id` text NOT NULL,
	`path` text NOT NULL,
	`object_key` text NOT NULL,
	`size` integer NOT NULL,
	`mime_type` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`skill_id`) REFERENCES `skills`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `skill_resources_path_uq` ON `skill_resources` (`skill_id`,`path`);--> statement-breakpoint
CREATE TABLE `skill_tools` (
	`skill_id` text NOT NULL,
	`tool_id` text NOT NULL,
	PRIMARY KEY(`skill_id`, `tool_id`),
	FOREIGN KEY (`skill_id`) REFERENCES `skills`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tool_id`) REFERENCES `tools`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `skill_tools_tool_idx` ON `skill_tools` (`tool_id`);--> statement-breakpoint
CREATE TABLE `skills` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text,
	`created_by_id` text,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`when_to_use` text DEFAULT '' NOT NULL,
	`instructions` text DEFAULT '' NOT NULL,
	`source` text DEFAULT 'manual' NOT NULL,
	`package_key` text,
	`package_name` text,
	`package_size` integer,
	`package_uploaded_at` integer,
	`last_used_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `skills_org_name_uq` ON `skills` (`organization_id`,`name`);--> statement-breakpoint
CREATE INDEX `skills_org_idx` ON `skills` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `sql_database_chatbots` (
	`sql_database_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	PRIMARY KEY(`sql_database_id`, `chatbot_id`),
	FOREIGN KEY (`sql_database_id`) REFERENCES `sql_databases`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sql_database_chatbots_chatbot_idx` ON `sql_database_chatbots` (`chatbot_id`);--> statement-breakpoint
CREATE TABLE `sql_database_groups` (
	`sql_database_id` text NOT NULL,
	`group_id` text NOT NULL,
	PRIMARY KEY(`sql_database_id`, `group_id`),
	FOREIGN KEY (`sql_database_id`) REFERENCES `sql_databases`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sql_database_groups_group_idx` ON `sql_database_groups` (`group_id`);--> statement-breakpoint
CREATE TABLE `sql_database_tables` (
	`id` text PRIMARY KEY NOT NULL,
	`sql_database_id` text NOT NULL,
	`table_name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'ready' NOT NULL,
	`error_message` text,
	`source_file_id` text,
	`source_file_name` text,
	`is_from_knowledge_base` integer DEFAULT false NOT NULL,
	`row_count` integer,
	`columns` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`sql_database_id`) REFERENCES `sql_databases`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sql_database_tables_name_uq` ON `sql_database_tables` (`sql_database_id`,`table_name`);--> statement-breakpoint
CREATE TABLE `sql_databases` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`created_by_id` text,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`database_type` text NOT NULL,
	`database_url_sealed` text,
	`database_url_masked` text,
	`include_tables` text,
	`is_active` integer DEFAULT true NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`error_message` text,
	`checked_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sql_databases_org_name_uq` ON `sql_databases` (`organization_id`,`name`);--> statement-breakpoint
CREATE INDEX `sql_databases_org_idx` ON `sql_databases` (`organization_id`,`created_at`);
CREATE TABLE `chatbot_tools` (
	`chatbot_id` text NOT NULL,
	`tool_id` text NOT NULL,
	PRIMARY KEY(`chatbot_id`, `tool_id`),
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tool_id`) REFERENCES `tools`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chatbot_tools_tool_idx` ON `chatbot_tools` (`tool_id`);--> statement-breakpoint
CREATE TABLE `tool_execution_records` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`chatbot_id` text,
	`chatbot_name` text DEFAULT '' NOT NULL,
	`tool_id` text,
	`tool_name` text NOT NULL,
	`tool_display_name` text DEFAULT '' NOT NULL,
	`tool_type` text NOT NULL,
	`conversation_id` text,
	`message_id` text,
	`message_text` text DEFAULT '' NOT NULL,
	`call_id` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`input` text NOT NULL,
	`output` text,
	`error` text,
	`duration_ms` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`tool_id`) REFERENCES `tools`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `tool_execution_records_org_idx` ON `tool_execution_records` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `tool_execution_records_tool_idx` ON `tool_execution_records` (`tool_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `tool_execution_records_chatbot_idx` ON `tool_execution_records` (`chatbot_id`);--> statement-breakpoint
CREATE TABLE `tool_groups` (
	`tool_id` text NOT NULL,
	`group_id` text NOT NULL,
	PRIMARY KEY(`tool_id`, `group_id`),
	FOREIGN KEY (`tool_id`) REFERENCES `tools`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `tool_groups_group_idx` ON `tool_groups` (`group_id`);--> statement-breakpoint
CREATE TABLE `tools` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text,
	`created_by_id` text,
	`name` text,
	`display_name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`prompt` text DEFAULT '' NOT NULL,
	`tool_type` text NOT NULL,
	`api_url` text,
	`http_method` text,
	`raw_headers` text,
	`raw_parameters_schema` text,
	`mcp_allowed_tools` text,
	`function_code` text,
	`mcp_url` text,
	`raw_mcp_header` text,
	`flex_template_json` text,
	`flex_schema` text,
	`quick_reply_config` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tools_org_name_uq` ON `tools` (`organization_id`,`name`);--> statement-breakpoint
CREATE INDEX `tools_org_idx` ON `tools` (`organization_id`,`created_at`);
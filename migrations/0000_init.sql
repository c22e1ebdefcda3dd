CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`organization_id` text,
	`name` text NOT NULL,
	`prefix` text NOT NULL,
	`key_hash` text NOT NULL,
	`expires_at` integer,
	`revoked_at` integer,
	`last_used_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_key_hash_unique` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_user_idx` ON `api_keys` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`password_hash` text,
	`avatar` text,
	`company` text,
	`invitation_code` text,
	`is_staff` integer DEFAULT false NOT NULL,
	`last_login_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE TABLE `group_members` (
	`id` text PRIMARY KEY NOT NULL,
	`group_id` text NOT NULL,
	`member_id` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `group_members_uq` ON `group_members` (`group_id`,`member_id`);--> statement-breakpoint
CREATE INDEX `group_members_member_idx` ON `group_members` (`member_id`);--> statement-breakpoint
CREATE TABLE `group_permissions` (
	`group_id` text NOT NULL,
	`permission_id` text NOT NULL,
	PRIMARY KEY(`group_id`, `permission_id`),
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `groups` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `groups_org_name_uq` ON `groups` (`organization_id`,`name`);--> statement-breakpoint
CREATE TABLE `members` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`user_id` text NOT NULL,
	`is_owner` integer DEFAULT false NOT NULL,
	`metadata` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `members_org_user_uq` ON `members` (`organization_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `members_user_idx` ON `members` (`user_id`);--> statement-breakpoint
CREATE TABLE `organization_usage` (
	`organization_id` text NOT NULL,
	`month` text NOT NULL,
	`words_count` integer DEFAULT 0 NOT NULL,
	`conversations_count` integer DEFAULT 0 NOT NULL,
	`uploaded_bytes` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`organization_id`, `month`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `organizations` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`owner_id` text NOT NULL,
	`compact_logo` text,
	`full_logo` text,
	`theme_primary_color` text,
	`plan_id` text DEFAULT 'free' NOT NULL,
	`plan_expired_at` integer,
	`can_use_custom_elasticsearch` integer DEFAULT false NOT NULL,
	`can_use_voice_agent` integer DEFAULT false NOT NULL,
	`can_use_meeting_records` integer DEFAULT false NOT NULL,
	`can_use_call_center` integer DEFAULT false NOT NULL,
	`can_use_hook_system` integer DEFAULT false NOT NULL,
	`can_use_ai_gateway` integer DEFAULT false NOT NULL,
	`can_use_agent_teams` integer DEFAULT false NOT NULL,
	`can_use_maigpt_workspace_mount` integer DEFAULT false NOT NULL,
	`gateway_service_fee_percent` text DEFAULT '0.00' NOT NULL,
	`gateway_traffic_fee_percent` text DEFAULT '0.00' NOT NULL,
	`platform_processing_fee_percent` text DEFAULT '0.00' NOT NULL,
	`platform_processing_fee_enabled` integer DEFAULT false NOT NULL,
	`trial_ends_at` integer,
	`approval_status` text DEFAULT 'pending' NOT NULL,
	`company_name` text,
	`tax_id` text,
	`contact_phone` text,
	`application_metadata` text,
	`invitation_code` text,
	`gpt_inbox_id` text,
	`credit_wallet_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `models` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`provider` text NOT NULL,
	`model_name` text NOT NULL,
	`base_url` text,
	`api_key_encrypted` text,
	`dimensions` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `models_org_kind_idx` ON `models` (`organization_id`,`kind`);--> statement-breakpoint
CREATE TABLE `chatbot_groups` (
	`id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`group_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`chatbot_id`, `group_id`),
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chatbot_groups_id_unique` ON `chatbot_groups` (`id`);--> statement-breakpoint
CREATE INDEX `chatbot_groups_group_idx` ON `chatbot_groups` (`group_id`);--> statement-breakpoint
CREATE TABLE `chatbots` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text,
	`created_by_id` text NOT NULL,
	`name` text NOT NULL,
	`large_language_model_id` text NOT NULL,
	`embedding_model_id` text,
	`reranker_model_id` text,
	`rag_id` text,
	`built_in_workflow_id` text,
	`instructions` text DEFAULT '' NOT NULL,
	`reply_mode` text DEFAULT 'normal' NOT NULL,
	`template` text,
	`unanswerable_template` text,
	`total_words_count` integer DEFAULT 0 NOT NULL,
	`output_mode` text DEFAULT 'text' NOT NULL,
	`raw_output_format` text,
	`database_url` text,
	`database_type` text,
	`include_tables` text,
	`agent_mode` text DEFAULT 'normal' NOT NULL,
	`number_of_retrieved_chunks` integer DEFAULT 12 NOT NULL,
	`enable_evaluation` integer DEFAULT false NOT NULL,
	`enable_in_line_citations` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`large_language_model_id`) REFERENCES `models`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`embedding_model_id`) REFERENCES `models`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`reranker_model_id`) REFERENCES `models`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `chatbots_org_idx` ON `chatbots` (`organization_id`);--> statement-breakpoint
CREATE TABLE `inboxes` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`channel_type` text NOT NULL,
	`chatbot_id` text,
	`is_default` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `inboxes_org_idx` ON `inboxes` (`organization_id`);--> statement-breakpoint
CREATE INDEX `inboxes_chatbot_idx` ON `inboxes` (`chatbot_id`);--> statement-breakpoint
CREATE TABLE `web_chats` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`inbox_id` text NOT NULL,
	`name` text NOT NULL,
	`access_type` text DEFAULT 'public' NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`settings` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`inbox_id`) REFERENCES `inboxes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `web_chats_inbox_id_unique` ON `web_chats` (`inbox_id`);--> statement-breakpoint
CREATE INDEX `web_chats_org_idx` ON `web_chats` (`organization_id`);
CREATE TABLE `chatbot_knowledge_bases` (
	`chatbot_id` text NOT NULL,
	`knowledge_base_id` text NOT NULL,
	PRIMARY KEY(`chatbot_id`, `knowledge_base_id`),
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`knowledge_base_id`) REFERENCES `knowledge_bases`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chatbot_knowledge_bases_kb_idx` ON `chatbot_knowledge_bases` (`knowledge_base_id`);--> statement-breakpoint
CREATE TABLE `faq_labels` (
	`faq_id` text NOT NULL,
	`label_id` text NOT NULL,
	PRIMARY KEY(`faq_id`, `label_id`),
	FOREIGN KEY (`faq_id`) REFERENCES `faqs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`label_id`) REFERENCES `knowledge_base_labels`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `faq_labels_label_idx` ON `faq_labels` (`label_id`);--> statement-breakpoint
CREATE TABLE `faqs` (
	`id` text PRIMARY KEY NOT NULL,
	`knowledge_base_id` text NOT NULL,
	`question` text NOT NULL,
	`answer` text NOT NULL,
	`answer_media_urls` text DEFAULT '{}' NOT NULL,
	`hits_count` integer DEFAULT 0 NOT NULL,
	`embedding_tokens_count` integer DEFAULT 0 NOT NULL,
	`raw_user_define_metadata` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`knowledge_base_id`) REFERENCES `knowledge_bases`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `faqs_kb_idx` ON `faqs` (`knowledge_base_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `knowledge_base_file_labels` (
	`file_id` text NOT NULL,
	`label_id` text NOT NULL,
	PRIMARY KEY(`file_id`, `label_id`),
	FOREIGN KEY (`file_id`) REFERENCES `knowledge_base_files`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`label_id`) REFERENCES `knowledge_base_labels`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `knowledge_base_file_labels_label_idx` ON `knowledge_base_file_labels` (`label_id`);--> statement-breakpoint
CREATE TABLE `knowledge_base_files` (
	`id` text PRIMARY KEY NOT NULL,
	`knowledge_base_id` text NOT NULL,
	`created_by_id` text,
	`filename` text NOT NULL,
	`object_key` text NOT NULL,
	`file_type` text NOT NULL,
	`size` integer NOT NULL,
	`status` text DEFAULT 'initial' NOT NULL,
	`parser_id` text,
	`raw_user_define_metadata` text DEFAULT '{}' NOT NULL,
	`chunks_count` integer DEFAULT 0 NOT NULL,
	`vector_storage_size` integer DEFAULT 0 NOT NULL,
	`generation` integer DEFAULT 1 NOT NULL,
	`queued_at` integer NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	`processing_time_details` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`knowledge_base_id`) REFERENCES `knowledge_bases`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `knowledge_base_files_kb_idx` ON `knowledge_base_files` (`knowledge_base_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `knowledge_base_groups` (
	`knowledge_base_id` text NOT NULL,
	`group_id` text NOT NULL,
	PRIMARY KEY(`knowledge_base_id`, `group_id`),
	FOREIGN KEY (`knowledge_base_id`) REFERENCES `knowledge_bases`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `knowledge_base_groups_group_idx` ON `knowledge_base_groups` (`group_id`);--> statement-breakpoint
CREATE TABLE `knowledge_base_labels` (
	`id` text PRIMARY KEY NOT NULL,
	`knowledge_base_id` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`knowledge_base_id`) REFERENCES `knowledge_bases`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `knowledge_base_labels_name_uq` ON `knowledge_base_labels` (`knowledge_base_id`,`name`);--> statement-breakpoint
CREATE TABLE `knowledge_bases` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`created_by_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`embedding_model_id` text NOT NULL,
	`reranker_model_id` text NOT NULL,
	`number_of_retrieved_chunks` integer DEFAULT 12 NOT NULL,
	`sentence_window_size` integer DEFAULT 2 NOT NULL,
	`enable_hyde` integer DEFAULT false NOT NULL,
	`similarity_cutoff` real DEFAULT 0 NOT NULL,
	`enable_rerank` integer DEFAULT true NOT NULL,
	`enable_rrf` integer,
	`vector_database_type` text,
	`vector_database_url` text,
	`vector_database_credentials_sealed` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`embedding_model_id`) REFERENCES `models`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`reranker_model_id`) REFERENCES `models`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `knowledge_bases_org_idx` ON `knowledge_bases` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `text_nodes` (
	`id` text PRIMARY KEY NOT NULL,
	`knowledge_base_id` text NOT NULL,
	`file_id` text NOT NULL,
	`position` integer NOT NULL,
	`text` text NOT NULL,
	`hits_count` integer DEFAULT 0 NOT NULL,
	`page_start` integer,
	`page_end` integer,
	`start_char_idx` integer NOT NULL,
	`end_char_idx` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`knowledge_base_id`) REFERENCES `knowledge_bases`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`file_id`) REFERENCES `knowledge_base_files`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `text_nodes_file_position_uq` ON `text_nodes` (`file_id`,`position`);--> statement-breakpoint
CREATE INDEX `text_nodes_kb_idx` ON `text_nodes` (`knowledge_base_id`);
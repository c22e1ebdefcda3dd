CREATE TABLE `batch_qa_items` (
	`id` text PRIMARY KEY NOT NULL,
	`batch_qa_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`position` integer NOT NULL,
	`question` text NOT NULL,
	`expected_answer` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`answer` text,
	`citations` text,
	`reply_ms` integer,
	`error` text,
	`faithfulness` real,
	`answer_relevancy` real,
	`context_precision` real,
	`context_recall` real,
	`answer_correctness` real,
	`answer_similarity` real,
	`answered_at` integer,
	FOREIGN KEY (`batch_qa_id`) REFERENCES `batch_qas`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `batch_qa_items_position_uq` ON `batch_qa_items` (`batch_qa_id`,`position`);--> statement-breakpoint
CREATE TABLE `batch_qas` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`web_chat_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`created_by_id` text NOT NULL,
	`file` text NOT NULL,
	`filename` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`completed` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `batch_qas_web_chat_idx` ON `batch_qas` (`web_chat_id`,`created_at`);
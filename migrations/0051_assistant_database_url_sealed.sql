-- An assistant's databaseUrl is sealed as a SQL database's (services/chatbots/database-url.ts); values written
-- before stay in database_url until the housekeeping cron seals them.
ALTER TABLE `chatbots` ADD `database_url_sealed` text;--> statement-breakpoint
ALTER TABLE `chatbots` ADD `database_url_masked` text;
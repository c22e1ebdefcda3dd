-- DB's migrations/0055_channel_thread_lease.sql in the shards (test/db/shard-schema.test.ts compares them), without
-- its trigger: a shard has no data-plane move's triggers.
ALTER TABLE `channel_threads` ADD `lease_until` integer;
--> statement-breakpoint
ALTER TABLE `channel_threads` ADD `lease_holder` text;

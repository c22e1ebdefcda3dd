-- DB's migrations/0052_channel_event_position.sql in the shards (test/db/shard-schema.test.ts compares them).
ALTER TABLE `channel_events` ADD `position` integer DEFAULT 0 NOT NULL;

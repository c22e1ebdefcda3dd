-- An event's place in the request that brought it (src/services/channels/intake.ts orders a chat's events by it after
-- their time and receiving time): platforms giving whole seconds give two messages of one second the same time.
-- Events kept before are 0, and keep the order they had.
ALTER TABLE `channel_events` ADD `position` integer DEFAULT 0 NOT NULL;

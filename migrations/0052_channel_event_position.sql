-- An event's place in the request that brought it (src/services/channels/intake.ts orders a chat's events by it after
-- their time and receiving time): platforms giving whole seconds give two messages of one second the same time.
-- Events kept before are 0, and keep the order they had.
ALTER TABLE `channel_events` ADD `position` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- The data-plane move watches every column of a moved table (migrations/0043): its update trigger names the new one.
DROP TRIGGER IF EXISTS `moving_channel_events_update`;
--> statement-breakpoint
CREATE TRIGGER `moving_channel_events_update` BEFORE UPDATE OF `inbox_id`, `event_id`, `organization_id`, `payload`, `status`, `message_id`, `attempts`, `error`, `received_at`, `thread_key`, `at`, `position` ON `channel_events`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'channel_events', json_array(NEW.`inbox_id`, NEW.`event_id`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'channel_events', json_array(OLD.`inbox_id`, OLD.`event_id`) WHERE json_array(OLD.`inbox_id`, OLD.`event_id`) <> json_array(NEW.`inbox_id`, NEW.`event_id`);
END;

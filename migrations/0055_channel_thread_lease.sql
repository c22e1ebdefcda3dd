-- Which intake run is taking a chat's events in, until when (src/services/channels/intake.ts): one run a chat.
ALTER TABLE `channel_threads` ADD `lease_until` integer;
--> statement-breakpoint
ALTER TABLE `channel_threads` ADD `lease_holder` text;
--> statement-breakpoint
-- The data-plane move watches every column of a moved table (migrations/0043): its update trigger names the new ones.
DROP TRIGGER IF EXISTS `moving_channel_threads_update`;
--> statement-breakpoint
CREATE TRIGGER `moving_channel_threads_update` BEFORE UPDATE OF `inbox_id`, `thread_key`, `organization_id`, `contact_id`, `conversation_id`, `context`, `updated_at`, `lease_until`, `lease_holder` ON `channel_threads`
WHEN (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) IN ('moving', 'fenced', 'shard') BEGIN
	SELECT RAISE(IGNORE) WHERE (SELECT `data_plane` FROM `organization_shards` WHERE `organization_id` = NEW.`organization_id`) <> 'moving';
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`) VALUES (NEW.`organization_id`, 'channel_threads', json_array(NEW.`inbox_id`, NEW.`thread_key`));
	INSERT INTO `data_plane_changes` (`organization_id`, `table_name`, `key`)
	SELECT OLD.`organization_id`, 'channel_threads', json_array(OLD.`inbox_id`, OLD.`thread_key`) WHERE json_array(OLD.`inbox_id`, OLD.`thread_key`) <> json_array(NEW.`inbox_id`, NEW.`thread_key`);
END;

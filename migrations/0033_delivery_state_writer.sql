-- A message's `metadata.channelDelivery` is written by its conversation's object (Conversation.deliveryState) after
-- each write of the delivery's state, so the object's copy of its messages stays current without reading D1: the two
-- triggers that wrote it go. `shown` is false from a write of the state until the object copied it, for the
-- housekeeping cron to tell the object again should the sender's call have failed; rows already here were shown by
-- the triggers.
DROP TRIGGER IF EXISTS `channel_deliveries_shown_on_insert`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `channel_deliveries_shown_on_update`;--> statement-breakpoint
ALTER TABLE `channel_deliveries` ADD `shown` integer DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX `channel_deliveries_unshown_idx` ON `channel_deliveries` (`message_id`) WHERE "channel_deliveries"."shown" = 0;

-- A delivery names its conversation, so the consumer reads a message's payload from the conversation's object
-- (services/webhooks/event-data.ts) rather than D1 `messages`. The rows here (the outbox, and events that never
-- succeeded: delivered ones move to R2 segments) take it from their message or lifecycle event.
ALTER TABLE `webhook_deliveries` ADD `conversation_id` text;--> statement-breakpoint
UPDATE `webhook_deliveries` SET `conversation_id` = (
  SELECT `conversation_id` FROM `messages` WHERE `messages`.`id` = `webhook_deliveries`.`message_id`
) WHERE `message_id` IS NOT NULL;--> statement-breakpoint
UPDATE `webhook_deliveries` SET `conversation_id` = (
  SELECT `conversation_id` FROM `conversation_events`
  WHERE `conversation_events`.`id` = `webhook_deliveries`.`conversation_event_id`
) WHERE `conversation_event_id` IS NOT NULL;

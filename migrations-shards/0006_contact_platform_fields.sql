-- As the main database's 0050_contact_platform_fields: a web chat's or a platform's contacts lose the `webChat` or
-- `channel` the service wrote into their custom fields. The shard has no web chats: a web chat's id is a UUID and
-- its contact is linked to an inbox.
UPDATE `contacts` SET `metadata` = json_remove(`metadata`, '$.webChat')
WHERE json_valid(`metadata`)
  AND json_extract(`metadata`, '$.webChat') GLOB '????????-????-????-????-????????????'
  AND EXISTS (SELECT 1 FROM `contact_inboxes` WHERE `contact_inboxes`.`contact_id` = `contacts`.`id`);--> statement-breakpoint
UPDATE `contacts` SET `metadata` = json_remove(`metadata`, '$.channel')
WHERE json_valid(`metadata`) AND `source_id` IS NOT NULL
  AND json_extract(`metadata`, '$.channel') IN ('line', 'telegram', 'messenger', 'instagram', 'whatsapp', 'slack', 'email');

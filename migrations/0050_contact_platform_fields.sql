-- Contacts a web chat or a messaging channel created kept the web chat's id (`webChat`) or the platform
-- (`channel`) in their metadata, which is the business's custom fields: the console showed a raw id as one.
-- Both are the contact's inbox link already; take them out where they hold what the service wrote.
UPDATE `contacts` SET `metadata` = json_remove(`metadata`, '$.webChat')
WHERE json_valid(`metadata`) AND json_extract(`metadata`, '$.webChat') IN (SELECT `id` FROM `web_chats`);--> statement-breakpoint
UPDATE `contacts` SET `metadata` = json_remove(`metadata`, '$.channel')
WHERE json_valid(`metadata`) AND `source_id` IS NOT NULL
  AND json_extract(`metadata`, '$.channel') IN ('line', 'telegram', 'messenger', 'instagram', 'whatsapp', 'slack', 'email');

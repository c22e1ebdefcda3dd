-- DB's migrations/0045_email_reply_ids.sql in the shards (test/db/shard-schema.test.ts compares them).
CREATE INDEX `channel_deliveries_email_id_idx` ON `channel_deliveries` (`inbox_id`, json_extract(platform_message_ids, '$[0]')) WHERE platform_message_ids LIKE '%@%';

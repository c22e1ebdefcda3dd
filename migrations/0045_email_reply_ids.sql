-- An e-mail reply's Message-ID by inbox (src/db/schema/channels.ts, channel_deliveries_email_id_idx). Written by hand:
-- drizzle-kit splits an expression's arguments into columns.
CREATE INDEX `channel_deliveries_email_id_idx` ON `channel_deliveries` (`inbox_id`, json_extract(platform_message_ids, '$[0]')) WHERE platform_message_ids LIKE '%@%';

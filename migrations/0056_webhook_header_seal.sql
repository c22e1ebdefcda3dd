-- A webhook's custom headers sealed at rest (src/services/webhooks/headers.ts): the values are credentials. AES-GCM
-- under ENCRYPTION_KEY cannot be done in SQL, so rows keep their clear `headers` until the housekeeping cron seals
-- them (a hundred a run) or a change rewrites them; until then they are read, sent and shown (masked) as they are.
ALTER TABLE `webhooks` ADD `headers_sealed` text;
--> statement-breakpoint
ALTER TABLE `webhooks` ADD `headers_masked` text;
--> statement-breakpoint
-- Rows without headers have nothing to seal.
UPDATE `webhooks` SET `headers` = NULL WHERE `headers` IN ('{}', 'null');

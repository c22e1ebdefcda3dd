-- The figures a message adds (the hourly rollups and their tests part, an hour's contacts, an
-- assistant reply's record, a stretch's first response and handoff reason) are written by the
-- message's writer in the message's batch (src/services/statistics/message-figures.ts, called by
-- messageWrites; a rating's by services/widget/feedback.ts), so that nothing depends on a D1 insert
-- into or update of `messages` as messages move out of D1 (docs/decisions.md, "Figures written with
-- the message"). The full-text triggers (migration 0026) and those of channel deliveries (0021) stay.
DROP TRIGGER IF EXISTS `usage_on_message`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `usage_tests_on_message`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `usage_on_feedback`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `usage_tests_on_feedback`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `handoffs_on_message`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `handoffs_on_handoff_message`;

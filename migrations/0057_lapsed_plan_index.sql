-- The housekeeping cron's sweep of lapsed plans (src/services/lapsed-plan-cleanup.ts) seeks the organizations whose
-- plan lapsed, rather than reading every organization every 15 minutes.
CREATE INDEX `organizations_plan_expired_idx` ON `organizations` (`plan_expired_at`)
  WHERE `plan_expired_at` IS NOT NULL;

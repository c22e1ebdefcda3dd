-- Global skills' names are unique among themselves in the database too (src/services/skills/store.ts): the unique
-- index on (organization_id, name) takes NULLs for distinct, and the check before a write let two at one instant
-- pass. Names that are already taken twice keep the oldest skill's; each later one gets its id appended, so the
-- index can be built and nothing is deleted.
UPDATE `skills` SET `name` = substr(`name`, 1, 160) || ' (' || `id` || ')'
WHERE `organization_id` IS NULL AND EXISTS (
	SELECT 1 FROM `skills` AS `older`
	WHERE `older`.`organization_id` IS NULL AND `older`.`name` = `skills`.`name`
		AND (`older`.`created_at` < `skills`.`created_at`
			OR (`older`.`created_at` = `skills`.`created_at` AND `older`.`id` < `skills`.`id`))
);--> statement-breakpoint
CREATE UNIQUE INDEX `skills_global_name_uq` ON `skills` (`name`) WHERE "skills"."organization_id" is null;

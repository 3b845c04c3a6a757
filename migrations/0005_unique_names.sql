-- Names become unique (spec §5 "Uniqueness: name"; issue 9), ignoring case, per company (folders: per
-- parent). Rows that already share a name keep the oldest as is and get " (2)", " (3)", ... so
-- the unique indexes below can be built.
CREATE TABLE `_name_renames` (`id` text PRIMARY KEY NOT NULL, `n` integer NOT NULL);
--> statement-breakpoint
INSERT INTO `_name_renames` (`id`, `n`)
SELECT `id`, `n` FROM (SELECT `id`, row_number() OVER (PARTITION BY `company_id`, lower(`name`) ORDER BY `created_at`, `id`) AS `n` FROM `connections`) WHERE `n` > 1;
--> statement-breakpoint
UPDATE `connections` SET `name` = `name` || ' (' || (SELECT r.`n` FROM `_name_renames` r WHERE r.`id` = `connections`.`id`) || ')' WHERE `id` IN (SELECT `id` FROM `_name_renames`);
--> statement-breakpoint
DELETE FROM `_name_renames`;
--> statement-breakpoint
INSERT INTO `_name_renames` (`id`, `n`)
SELECT `id`, `n` FROM (SELECT `id`, row_number() OVER (PARTITION BY `company_id`, lower(`name`) ORDER BY `created_at`, `id`) AS `n` FROM `crm_columns`) WHERE `n` > 1;
--> statement-breakpoint
UPDATE `crm_columns` SET `name` = `name` || ' (' || (SELECT r.`n` FROM `_name_renames` r WHERE r.`id` = `crm_columns`.`id`) || ')' WHERE `id` IN (SELECT `id` FROM `_name_renames`);
--> statement-breakpoint
DELETE FROM `_name_renames`;
--> statement-breakpoint
INSERT INTO `_name_renames` (`id`, `n`)
SELECT `id`, `n` FROM (SELECT `id`, row_number() OVER (PARTITION BY `company_id`, lower(`name`) ORDER BY `created_at`, `id`) AS `n` FROM `quick_messages`) WHERE `n` > 1;
--> statement-breakpoint
UPDATE `quick_messages` SET `name` = `name` || ' (' || (SELECT r.`n` FROM `_name_renames` r WHERE r.`id` = `quick_messages`.`id`) || ')' WHERE `id` IN (SELECT `id` FROM `_name_renames`);
--> statement-breakpoint
DELETE FROM `_name_renames`;
--> statement-breakpoint
INSERT INTO `_name_renames` (`id`, `n`)
SELECT `id`, `n` FROM (SELECT `id`, row_number() OVER (PARTITION BY `company_id`, coalesce(`parent_id`, ''), lower(`name`) ORDER BY `created_at`, `id`) AS `n` FROM `flow_folders`) WHERE `n` > 1;
--> statement-breakpoint
UPDATE `flow_folders` SET `name` = `name` || ' (' || (SELECT r.`n` FROM `_name_renames` r WHERE r.`id` = `flow_folders`.`id`) || ')' WHERE `id` IN (SELECT `id` FROM `_name_renames`);
--> statement-breakpoint
DELETE FROM `_name_renames`;
--> statement-breakpoint
INSERT INTO `_name_renames` (`id`, `n`)
SELECT `id`, `n` FROM (SELECT `id`, row_number() OVER (PARTITION BY `company_id`, lower(`name`) ORDER BY `created_at`, `id`) AS `n` FROM `keywords`) WHERE `n` > 1;
--> statement-breakpoint
UPDATE `keywords` SET `name` = `name` || ' (' || (SELECT r.`n` FROM `_name_renames` r WHERE r.`id` = `keywords`.`id`) || ')' WHERE `id` IN (SELECT `id` FROM `_name_renames`);
--> statement-breakpoint
DELETE FROM `_name_renames`;
--> statement-breakpoint
DROP TABLE `_name_renames`;
--> statement-breakpoint
CREATE UNIQUE INDEX `connections_company_name_uq` ON `connections` (`company_id`,lower("name"));
--> statement-breakpoint
CREATE UNIQUE INDEX `crm_columns_company_name_uq` ON `crm_columns` (`company_id`,lower("name"));
--> statement-breakpoint
CREATE UNIQUE INDEX `quick_messages_company_name_uq` ON `quick_messages` (`company_id`,lower("name"));
--> statement-breakpoint
CREATE UNIQUE INDEX `flow_folders_parent_name_uq` ON `flow_folders` (`company_id`,coalesce("parent_id", ''),lower("name"));
--> statement-breakpoint
CREATE UNIQUE INDEX `keywords_company_name_uq` ON `keywords` (`company_id`,lower("name"));

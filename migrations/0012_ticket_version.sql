-- A version per ticket (issue 16): up by one with every change of the row, so a client keeps the newest of two list entries that reach it out of order. The appends' batches set it themselves; this trigger covers every other UPDATE (it does nothing when the statement moved the version already).
ALTER TABLE `tickets` ADD `version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE TRIGGER `tickets_version_au` AFTER UPDATE ON `tickets` WHEN new.`version` = old.`version` BEGIN UPDATE `tickets` SET `version` = old.`version` + 1 WHERE `id` = new.`id`; END;

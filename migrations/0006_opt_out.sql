ALTER TABLE `companies` ADD `opt_out_words` text;--> statement-breakpoint
ALTER TABLE `contacts` ADD `opted_out_at` integer;
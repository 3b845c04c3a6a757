CREATE TABLE `contact_field_values` (
	`company_id` text NOT NULL,
	`contact_id` text NOT NULL,
	`field_id` text NOT NULL,
	`value` text NOT NULL,
	`value_number` real,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`contact_id`, `field_id`)
);
--> statement-breakpoint
CREATE INDEX `contact_field_values_filter_idx` ON `contact_field_values` (`company_id`,`field_id`,`value`);--> statement-breakpoint
CREATE TABLE `custom_fields` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`key` text NOT NULL,
	`type` text NOT NULL,
	`kind` text NOT NULL,
	`formula` text,
	`value` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `custom_fields_company_name_uq` ON `custom_fields` (`company_id`,`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `custom_fields_company_key_uq` ON `custom_fields` (`company_id`,`key`);--> statement-breakpoint
CREATE TABLE `contact_tags` (
	`company_id` text NOT NULL,
	`contact_id` text NOT NULL,
	`tag_id` text NOT NULL,
	PRIMARY KEY(`contact_id`, `tag_id`)
);
--> statement-breakpoint
CREATE INDEX `contact_tags_tag_idx` ON `contact_tags` (`company_id`,`tag_id`,`contact_id`);--> statement-breakpoint
CREATE TABLE `tags` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`color` text NOT NULL,
	`kind` text DEFAULT 'contact' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tags_company_kind_name_uq` ON `tags` (`company_id`,`kind`,`name`);--> statement-breakpoint
CREATE TABLE `crm_columns` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`color` text DEFAULT '#64748b' NOT NULL,
	`position` real NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `crm_columns_company_idx` ON `crm_columns` (`company_id`,`position`);--> statement-breakpoint
CREATE TABLE `quick_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`text` text NOT NULL,
	`media_key` text,
	`media_mime` text,
	`media_name` text,
	`media_size` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `quick_messages_company_name_idx` ON `quick_messages` (`company_id`,`name`);--> statement-breakpoint
CREATE TABLE `counters` (
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`value` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`company_id`, `name`)
);
--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`processed` integer DEFAULT 0 NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`errors` integer DEFAULT 0 NOT NULL,
	`error_message` text,
	`file_key` text,
	`result_key` text,
	`report_key` text,
	`params` text,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `jobs_company_idx` ON `jobs` (`company_id`,`created_at`);--> statement-breakpoint
DROP INDEX `contacts_company_created_idx`;--> statement-breakpoint
ALTER TABLE `contacts` ADD `crm_column_id` text;--> statement-breakpoint
ALTER TABLE `contacts` ADD `crm_position` real;--> statement-breakpoint
CREATE INDEX `contacts_company_name_idx` ON `contacts` (`company_id`,`name`);--> statement-breakpoint
CREATE INDEX `contacts_company_email_idx` ON `contacts` (`company_id`,`email`);--> statement-breakpoint
CREATE INDEX `contacts_crm_idx` ON `contacts` (`company_id`,`crm_column_id`,`crm_position`);--> statement-breakpoint
CREATE INDEX `contacts_company_created_idx` ON `contacts` (`company_id`,`created_at`,`id`);
CREATE TABLE `connection_flows` (
	`connection_id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`default_flow_id` text,
	`media_flow_id` text,
	`campaign_flow_id` text,
	`story_flow_id` text,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `connection_flows_company_idx` ON `connection_flows` (`company_id`);--> statement-breakpoint
CREATE TABLE `flow_folders` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`parent_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `flow_folders_parent_idx` ON `flow_folders` (`company_id`,`parent_id`,`name`);--> statement-breakpoint
CREATE TABLE `flow_stats` (
	`company_id` text NOT NULL,
	`flow_id` text NOT NULL,
	`node_id` text NOT NULL,
	`reached` integer DEFAULT 0 NOT NULL,
	`stopped` integer DEFAULT 0 NOT NULL,
	`rotary` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`flow_id`, `node_id`)
);
--> statement-breakpoint
CREATE TABLE `flow_versions` (
	`flow_id` text NOT NULL,
	`version` integer NOT NULL,
	`company_id` text NOT NULL,
	`document` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`flow_id`, `version`)
);
--> statement-breakpoint
CREATE TABLE `flows` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`folder_id` text,
	`name` text NOT NULL,
	`type` text DEFAULT 'default' NOT NULL,
	`draft` text NOT NULL,
	`share_active` integer DEFAULT false NOT NULL,
	`clone_active` integer DEFAULT false NOT NULL,
	`restrict_companies` integer DEFAULT false NOT NULL,
	`allowed_company_ids` text DEFAULT '[]' NOT NULL,
	`published_version` integer,
	`published_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `flows_folder_idx` ON `flows` (`company_id`,`folder_id`,`name`);--> statement-breakpoint
CREATE TABLE `keywords` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`turn_on` integer DEFAULT true NOT NULL,
	`rules` text NOT NULL,
	`flow_id` text NOT NULL,
	`created_messages` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `keywords_company_idx` ON `keywords` (`company_id`,`turn_on`,`created_at`);--> statement-breakpoint
CREATE TABLE `custom_events` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`contact_id` text NOT NULL,
	`name` text NOT NULL,
	`flow_id` text,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `custom_events_contact_idx` ON `custom_events` (`company_id`,`contact_id`,`at`);--> statement-breakpoint
CREATE INDEX `custom_events_name_idx` ON `custom_events` (`company_id`,`name`,`at`);
CREATE TABLE `connections` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`channel` text NOT NULL,
	`phone` text,
	`greeting_message` text DEFAULT '' NOT NULL,
	`farewell_message` text DEFAULT '' NOT NULL,
	`status` text NOT NULL,
	`phone_number_id` text,
	`waba_id` text,
	`access_token_enc` text,
	`access_token_hint` text,
	`pairing_secret_hash` text,
	`pairing_code_hash` text,
	`pairing_expires_at` integer,
	`device_token_hash` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `connections_company_idx` ON `connections` (`company_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `connections_phone_number_id_uq` ON `connections` (`phone_number_id`);--> statement-breakpoint
CREATE INDEX `connections_device_token_idx` ON `connections` (`device_token_hash`);--> statement-breakpoint
CREATE INDEX `connections_pairing_code_idx` ON `connections` (`pairing_code_hash`);--> statement-breakpoint
CREATE TABLE `contact_identities` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`contact_id` text NOT NULL,
	`channel` text NOT NULL,
	`external_id` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contact_identities_uq` ON `contact_identities` (`company_id`,`channel`,`external_id`);--> statement-breakpoint
CREATE INDEX `contact_identities_contact_idx` ON `contact_identities` (`contact_id`);--> statement-breakpoint
CREATE TABLE `contacts` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`phone` text,
	`email` text,
	`document` text,
	`image_key` text,
	`last_message_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_company_phone_uq` ON `contacts` (`company_id`,`phone`);--> statement-breakpoint
CREATE INDEX `contacts_company_created_idx` ON `contacts` (`company_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`ticket_id` text NOT NULL,
	`contact_id` text NOT NULL,
	`connection_id` text NOT NULL,
	`external_id` text,
	`direction` text NOT NULL,
	`type` text NOT NULL,
	`body` text DEFAULT '' NOT NULL,
	`payload` text,
	`media_key` text,
	`media_mime` text,
	`media_name` text,
	`media_size` integer,
	`quoted_id` text,
	`status` text NOT NULL,
	`error_code` text,
	`error_message` text,
	`sent_at` integer NOT NULL,
	`seq` integer NOT NULL,
	`sender_member_id` text,
	`sender_name` text,
	`idempotency_key` text,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `messages_connection_external_uq` ON `messages` (`connection_id`,`external_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `messages_company_idempotency_uq` ON `messages` (`company_id`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `messages_ticket_order_idx` ON `messages` (`ticket_id`,`sent_at`,`seq`);--> statement-breakpoint
CREATE INDEX `messages_contact_idx` ON `messages` (`contact_id`,`sent_at`);--> statement-breakpoint
CREATE TABLE `orphan_statuses` (
	`connection_id` text NOT NULL,
	`external_id` text NOT NULL,
	`status` text NOT NULL,
	`timestamp` integer NOT NULL,
	`error_code` text,
	`error_message` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `orphan_statuses_lookup_idx` ON `orphan_statuses` (`connection_id`,`external_id`);--> statement-breakpoint
CREATE TABLE `tickets` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`contact_id` text NOT NULL,
	`connection_id` text NOT NULL,
	`status` text NOT NULL,
	`assigned_member_id` text,
	`served_by_member_id` text,
	`is_group` integer DEFAULT false NOT NULL,
	`unread_count` integer DEFAULT 0 NOT NULL,
	`last_message_at` integer NOT NULL,
	`last_message_preview` text DEFAULT '' NOT NULL,
	`closed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `tickets_company_status_last_idx` ON `tickets` (`company_id`,`status`,`last_message_at`);--> statement-breakpoint
CREATE INDEX `tickets_company_last_idx` ON `tickets` (`company_id`,`last_message_at`);--> statement-breakpoint
CREATE INDEX `tickets_contact_idx` ON `tickets` (`contact_id`,`connection_id`,`status`);
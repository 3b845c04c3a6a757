CREATE TABLE `internal_chat_members` (
	`company_id` text NOT NULL,
	`chat_id` text NOT NULL,
	`member_id` text NOT NULL,
	`last_read_seq` integer DEFAULT 0 NOT NULL,
	`joined_at` integer NOT NULL,
	PRIMARY KEY(`chat_id`, `member_id`)
);
--> statement-breakpoint
CREATE INDEX `internal_chat_members_member_idx` ON `internal_chat_members` (`company_id`,`member_id`);--> statement-breakpoint
CREATE TABLE `internal_chat_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`chat_id` text NOT NULL,
	`seq` integer NOT NULL,
	`sender_member_id` text NOT NULL,
	`sender_name` text NOT NULL,
	`body` text DEFAULT '' NOT NULL,
	`media_key` text,
	`media_mime` text,
	`media_name` text,
	`media_size` integer,
	`mentions` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `internal_chat_messages_chat_seq_uq` ON `internal_chat_messages` (`chat_id`,`seq`);--> statement-breakpoint
CREATE INDEX `internal_chat_messages_company_idx` ON `internal_chat_messages` (`company_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `internal_chats` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`kind` text NOT NULL,
	`name` text,
	`direct_key` text,
	`created_by_member_id` text NOT NULL,
	`last_seq` integer DEFAULT 0 NOT NULL,
	`last_message_preview` text DEFAULT '' NOT NULL,
	`last_message_at` integer,
	`activity_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `internal_chats_direct_uq` ON `internal_chats` (`company_id`,`direct_key`);--> statement-breakpoint
CREATE TABLE `event_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`subscription_id` text NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`body` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `event_deliveries_subscription_idx` ON `event_deliveries` (`company_id`,`subscription_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `event_delivery_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`delivery_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`status_code` integer,
	`error` text,
	`duration_ms` integer NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `event_delivery_attempts_delivery_idx` ON `event_delivery_attempts` (`delivery_id`,`attempt`);--> statement-breakpoint
CREATE TABLE `event_subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`secret_enc` text NOT NULL,
	`secret_hint` text NOT NULL,
	`created_by_member_id` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `event_subscriptions_company_idx` ON `event_subscriptions` (`company_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `connection_templates` (
	`connection_id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`templates` text NOT NULL,
	`synced_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `connection_templates_company_idx` ON `connection_templates` (`company_id`,`connection_id`);--> statement-breakpoint
CREATE TABLE `shipping_cycles` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`steps` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `shipping_cycles_company_idx` ON `shipping_cycles` (`company_id`,`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `shipping_cycles_company_name_uq` ON `shipping_cycles` (`company_id`,lower("name"));--> statement-breakpoint
CREATE TABLE `webhook_request_actions` (
	`request_id` text NOT NULL,
	`action_index` integer NOT NULL,
	`company_id` text NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`detail` text,
	`at` integer NOT NULL,
	PRIMARY KEY(`request_id`, `action_index`)
);
--> statement-breakpoint
CREATE TABLE `webhook_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`webhook_id` text NOT NULL,
	`state` text NOT NULL,
	`content_type` text DEFAULT '' NOT NULL,
	`headers` text NOT NULL,
	`body` text NOT NULL,
	`received_at` integer NOT NULL,
	`processed_at` integer,
	`error` text,
	`result` text
);
--> statement-breakpoint
CREATE INDEX `webhook_requests_webhook_idx` ON `webhook_requests` (`webhook_id`,`received_at`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_requests_company_idx` ON `webhook_requests` (`company_id`,`received_at`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`mode` text DEFAULT 'test' NOT NULL,
	`token` text NOT NULL,
	`token_hash` text NOT NULL,
	`mapping` text NOT NULL,
	`actions` text NOT NULL,
	`spam_limit` integer DEFAULT 60 NOT NULL,
	`spam_at` integer,
	`last_request_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhooks_token_hash_uq` ON `webhooks` (`token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `webhooks_company_name_uq` ON `webhooks` (`company_id`,lower("name"));--> statement-breakpoint
CREATE TABLE `operating_hours` (
	`company_id` text PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`weekly` text NOT NULL,
	`exceptions` text NOT NULL,
	`outside` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `broadcast_recipients` (
	`broadcast_id` text NOT NULL,
	`contact_id` text NOT NULL,
	`company_id` text NOT NULL,
	`connection_id` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`reason` text,
	`detail` text,
	`run_id` text,
	`outside_window` integer DEFAULT 0 NOT NULL,
	`sending_at` integer,
	`template_sent_at` integer,
	`done_at` integer,
	`replied_at` integer,
	PRIMARY KEY(`broadcast_id`, `contact_id`)
);
--> statement-breakpoint
CREATE INDEX `broadcast_recipients_status_idx` ON `broadcast_recipients` (`broadcast_id`,`status`,`contact_id`);--> statement-breakpoint
CREATE INDEX `broadcast_recipients_contact_idx` ON `broadcast_recipients` (`company_id`,`contact_id`,`done_at`);--> statement-breakpoint
CREATE INDEX `broadcast_recipients_tier_idx` ON `broadcast_recipients` (`connection_id`,`outside_window`,`done_at`);--> statement-breakpoint
CREATE TABLE `broadcasts` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`connection_id` text NOT NULL,
	`flow_id` text NOT NULL,
	`delay` text NOT NULL,
	`scheduled_date` integer,
	`filters` text NOT NULL,
	`template` text,
	`status` text NOT NULL,
	`total` integer,
	`sent_count` integer DEFAULT 0 NOT NULL,
	`rejected_count` integer DEFAULT 0 NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `broadcasts_company_created_idx` ON `broadcasts` (`company_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `connection_send_limits` (
	`connection_id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`throughput_mps` integer DEFAULT 80 NOT NULL,
	`daily_limit` integer,
	`tier` text,
	`checked_at` integer,
	`last_send_at` integer DEFAULT 0 NOT NULL,
	`lease_until` integer DEFAULT 0 NOT NULL,
	`lease_id` text,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `dashboard_days` (
	`company_id` text NOT NULL,
	`day` text NOT NULL,
	`tickets_receptive` integer DEFAULT 0 NOT NULL,
	`tickets_active` integer DEFAULT 0 NOT NULL,
	`new_contacts` integer DEFAULT 0 NOT NULL,
	`first_responses` integer DEFAULT 0 NOT NULL,
	`first_response_hist` text,
	`resolutions` integer DEFAULT 0 NOT NULL,
	`resolution_hist` text,
	PRIMARY KEY(`company_id`, `day`)
);
--> statement-breakpoint
CREATE TABLE `dashboard_events` (
	`company_id` text NOT NULL,
	`day` text NOT NULL,
	`name` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`company_id`, `day`, `name`)
);
--> statement-breakpoint
ALTER TABLE `announcements` ADD `audience` text DEFAULT 'all' NOT NULL;--> statement-breakpoint
ALTER TABLE `announcements` ADD `starts_at` integer;--> statement-breakpoint
ALTER TABLE `announcements` ADD `ends_at` integer;--> statement-breakpoint
ALTER TABLE `announcements` ADD `created_by` text;--> statement-breakpoint
ALTER TABLE `announcements` ADD `updated_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `tickets` ADD `outside_hours_at` integer;--> statement-breakpoint
ALTER TABLE `tickets` ADD `origin` text DEFAULT 'customer' NOT NULL;--> statement-breakpoint
ALTER TABLE `tickets` ADD `first_response_at` integer;--> statement-breakpoint
CREATE INDEX `messages_media_idx` ON `messages` (`media_key`);
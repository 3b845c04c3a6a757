CREATE TABLE `franchise_admins` (
	`franchise_id` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`franchise_id`, `user_id`)
);
--> statement-breakpoint
CREATE INDEX `franchise_admins_user_idx` ON `franchise_admins` (`user_id`);--> statement-breakpoint
CREATE TABLE `franchise_hostnames` (
	`id` text PRIMARY KEY NOT NULL,
	`franchise_id` text NOT NULL,
	`hostname` text NOT NULL,
	`cf_id` text,
	`status` text NOT NULL,
	`ssl_status` text,
	`verification_records` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `franchise_hostnames_hostname_uq` ON `franchise_hostnames` (`hostname`);--> statement-breakpoint
CREATE INDEX `franchise_hostnames_franchise_idx` ON `franchise_hostnames` (`franchise_id`);--> statement-breakpoint
CREATE TABLE `franchise_roles` (
	`id` text PRIMARY KEY NOT NULL,
	`franchise_id` text NOT NULL,
	`name` text NOT NULL,
	`permissions` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `franchise_roles_franchise_name_uq` ON `franchise_roles` (`franchise_id`,`name`);--> statement-breakpoint
CREATE TABLE `franchises` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`logo_key` text,
	`favicon_key` text,
	`primary_color` text,
	`not_in_company` text DEFAULT '' NOT NULL,
	`not_paid` text DEFAULT '' NOT NULL,
	`send_email_to_unpaid_company` integer DEFAULT false NOT NULL,
	`mail_user` text,
	`mail_host` text,
	`mail_port` integer,
	`mail_password` text,
	`asaas_api_key` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `instagram_accounts` (
	`connection_id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`ig_user_id` text NOT NULL,
	`username` text DEFAULT '' NOT NULL,
	`picture_url` text,
	`token_expires_at` integer NOT NULL,
	`token_refreshed_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `instagram_accounts_ig_user_uq` ON `instagram_accounts` (`ig_user_id`);--> statement-breakpoint
CREATE INDEX `instagram_accounts_expiry_idx` ON `instagram_accounts` (`token_expires_at`);--> statement-breakpoint
CREATE TABLE `instagram_comment_actions` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`connection_id` text NOT NULL,
	`comment_id` text NOT NULL,
	`rule_id` text NOT NULL,
	`from_igsid` text NOT NULL,
	`media_id` text,
	`text` text DEFAULT '' NOT NULL,
	`private_reply_at` integer,
	`public_reply_at` integer,
	`error` text,
	`flow_id` text,
	`flow_started_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `instagram_comment_actions_comment_uq` ON `instagram_comment_actions` (`connection_id`,`comment_id`);--> statement-breakpoint
CREATE INDEX `instagram_comment_actions_sender_idx` ON `instagram_comment_actions` (`connection_id`,`from_igsid`,`created_at`);--> statement-breakpoint
CREATE TABLE `instagram_comment_rules` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`connection_id` text NOT NULL,
	`name` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`rules` text NOT NULL,
	`media_ids` text,
	`private_reply` text NOT NULL,
	`public_reply` text,
	`flow_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `instagram_comment_rules_connection_idx` ON `instagram_comment_rules` (`connection_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `instagram_oauth_states` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`user_id` text NOT NULL,
	`redirect_uri` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `instagram_oauth_states_expiry_idx` ON `instagram_oauth_states` (`expires_at`);--> statement-breakpoint
CREATE TABLE `instagram_profiles` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`igsid` text NOT NULL,
	`name` text,
	`username` text,
	`picture_url` text,
	`fetched_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `instagram_profiles_uq` ON `instagram_profiles` (`company_id`,`igsid`);--> statement-breakpoint
CREATE TABLE `billing_clocks` (
	`company_id` text PRIMARY KEY NOT NULL,
	`offset_ms` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `billing_coupons` (
	`id` text PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`kind` text NOT NULL,
	`value` integer NOT NULL,
	`valid_until` integer,
	`max_uses` integer,
	`uses` integer DEFAULT 0 NOT NULL,
	`plan_ids` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `billing_coupons_code_uq` ON `billing_coupons` (`code`);--> statement-breakpoint
CREATE TABLE `billing_events` (
	`id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`event` text NOT NULL,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `billing_invoices` (
	`id` text PRIMARY KEY NOT NULL,
	`public_id` text NOT NULL,
	`company_id` text NOT NULL,
	`subscription_id` text,
	`plan_id` text,
	`value_cents` integer NOT NULL,
	`due_date` integer NOT NULL,
	`paid_at` integer,
	`method` text,
	`status` text NOT NULL,
	`provider` text NOT NULL,
	`provider_payment_id` text,
	`invoice_url` text,
	`pix_payload` text,
	`pix_qr` text,
	`pix_expires_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `billing_invoices_public_uq` ON `billing_invoices` (`public_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `billing_invoices_payment_uq` ON `billing_invoices` (`provider`,`provider_payment_id`);--> statement-breakpoint
CREATE INDEX `billing_invoices_company_idx` ON `billing_invoices` (`company_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `billing_plans` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`price_cents` integer NOT NULL,
	`cycle` text NOT NULL,
	`max_members` integer,
	`max_connections` integer,
	`features` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `billing_subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`plan_id` text NOT NULL,
	`price_cents` integer NOT NULL,
	`status` text NOT NULL,
	`provider` text NOT NULL,
	`provider_customer_id` text,
	`provider_subscription_id` text,
	`billing_type` text NOT NULL,
	`card_brand` text,
	`card_last4` text,
	`next_due_date` integer NOT NULL,
	`paid_through` integer,
	`coupon_id` text,
	`reminder_sent_for` integer,
	`daily_run_day` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `billing_subscriptions_company_uq` ON `billing_subscriptions` (`company_id`);--> statement-breakpoint
CREATE INDEX `billing_subscriptions_provider_idx` ON `billing_subscriptions` (`provider_subscription_id`);--> statement-breakpoint
CREATE TABLE `whatsapp_qr_instances` (
	`connection_id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`instance_name` text NOT NULL,
	`webhook_secret_hash` text NOT NULL,
	`api_url_enc` text,
	`api_key_enc` text,
	`qr_code` text,
	`pairing_code` text,
	`qr_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `whatsapp_qr_instances_secret_uq` ON `whatsapp_qr_instances` (`webhook_secret_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `whatsapp_qr_instances_name_uq` ON `whatsapp_qr_instances` (`instance_name`);--> statement-breakpoint
CREATE INDEX `whatsapp_qr_instances_company_idx` ON `whatsapp_qr_instances` (`company_id`);--> statement-breakpoint
DROP INDEX `tickets_company_status_last_idx`;--> statement-breakpoint
DROP INDEX `tickets_company_last_idx`;--> statement-breakpoint
CREATE INDEX `tickets_company_status_last_id_idx` ON `tickets` (`company_id`,`status`,`last_message_at`,`id`);--> statement-breakpoint
CREATE INDEX `tickets_company_last_id_idx` ON `tickets` (`company_id`,`last_message_at`,`id`);--> statement-breakpoint
ALTER TABLE `companies` ADD `franchise_role_id` text;--> statement-breakpoint
ALTER TABLE `companies` ADD `suspended_at` integer;--> statement-breakpoint
ALTER TABLE `companies` ADD `unpaid_mail_day` text;
CREATE TABLE `rejected_events` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text,
	`connection_id` text,
	`channel` text NOT NULL,
	`reason` text NOT NULL,
	`detail` text DEFAULT '' NOT NULL,
	`payload_key` text NOT NULL,
	`payload_size` integer NOT NULL,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `rejected_events_connection_idx` ON `rejected_events` (`connection_id`,`received_at`);--> statement-breakpoint
CREATE INDEX `rejected_events_company_idx` ON `rejected_events` (`company_id`,`received_at`);--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`key_hash` text NOT NULL,
	`hint` text NOT NULL,
	`scopes` text NOT NULL,
	`created_by_member_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_uq` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_company_idx` ON `api_keys` (`company_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `email_verified_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `email_code_hash` text;--> statement-breakpoint
ALTER TABLE `users` ADD `email_code_expires_at` integer;--> statement-breakpoint
ALTER TABLE `rate_limits` ADD `blocked_until` integer;--> statement-breakpoint
ALTER TABLE `connections` ADD `display_phone_number` text;--> statement-breakpoint
ALTER TABLE `connections` ADD `verified_name` text;--> statement-breakpoint
ALTER TABLE `connections` ADD `quality_rating` text;--> statement-breakpoint
ALTER TABLE `connections` ADD `rejected_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `contacts` ADD `referral` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `edited_at` integer;--> statement-breakpoint
ALTER TABLE `messages` ADD `forwarded` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `messages` ADD `reactions` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `error_details` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `api_key_id` text;--> statement-breakpoint
ALTER TABLE `tickets` ADD `referral` text;--> statement-breakpoint
-- Existing company keys become integration keys with every scope (they acted as the owner before).
INSERT INTO `api_keys` (`id`, `company_id`, `name`, `key_hash`, `hint`, `scopes`, `created_by_member_id`, `created_at`)
SELECT lower(hex(randomblob(16))), c.`id`, 'API key', c.`api_key_hash`, coalesce(c.`api_key_hint`, ''),
  '["contacts:read","contacts:write","tickets:read","messages:send","flows:start"]', m.`id`, c.`updated_at`
FROM `companies` c JOIN `members` m ON m.`company_id` = c.`id` AND m.`user_id` = c.`owner_id`
WHERE c.`api_key_hash` IS NOT NULL;
--> statement-breakpoint
-- An owner who entered their company's activation code has proved the address already.
UPDATE `users` SET `email_verified_at` = (SELECT min(c.`activated_at`) FROM `companies` c WHERE c.`owner_id` = `users`.`id` AND c.`activated_at` IS NOT NULL);

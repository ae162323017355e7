CREATE TABLE `account_audit_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`action` text NOT NULL,
	`actor_user_id` integer,
	`actor_key_id` integer,
	`key_id` integer,
	`detail` text DEFAULT '{}' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `account_audit_events_user` ON `account_audit_events` (`user_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `account_audit_events_key_expired` ON `account_audit_events` (`key_id`) WHERE action = 'key.expired';--> statement-breakpoint
CREATE TABLE `key_usage_daily` (
	`key_id` integer NOT NULL,
	`day` text NOT NULL,
	`route_group` text NOT NULL,
	`status` integer NOT NULL,
	`requests` integer NOT NULL,
	PRIMARY KEY(`key_id`, `day`, `route_group`, `status`)
);
--> statement-breakpoint
CREATE INDEX `key_usage_daily_day` ON `key_usage_daily` (`day`);--> statement-breakpoint
ALTER TABLE `api_keys` ADD `allowed_ips` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `previous_token_hash` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `previous_encrypted_secret` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `previous_valid_until` text;--> statement-breakpoint
CREATE INDEX `api_keys_previous_token_hash` ON `api_keys` (`previous_token_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_expires_at` ON `api_keys` (`expires_at`);
CREATE TABLE `code_templates` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`version` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `miniprogram_steps` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`miniprogram_id` integer NOT NULL,
	`step` text NOT NULL,
	`actor_key_id` integer,
	`request` text,
	`answer` text,
	`at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`miniprogram_id`) REFERENCES `miniprograms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `miniprogram_steps_miniprogram` ON `miniprogram_steps` (`miniprogram_id`,`id`);--> statement-breakpoint
CREATE TABLE `miniprograms` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` integer NOT NULL,
	`name` text NOT NULL,
	`icon` text,
	`license` text,
	`license_type` text,
	`introduction` text,
	`config_type` text DEFAULT 'standard' NOT NULL,
	`authorizer_app_id` text,
	`authorizer_refresh_token` text,
	`pre_auth_code` text,
	`stage` text DEFAULT 'configured' NOT NULL,
	`template_id` integer,
	`template_version` text,
	`ext_json` text,
	`audit_id` text,
	`audit_status` integer,
	`audit_reason` text,
	`audit_screenshots` text,
	`test_qr_key` text,
	`wxa_code_key` text,
	`testers` text DEFAULT '[]' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `miniprograms_owner` ON `miniprograms` (`owner_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `miniprograms_appid` ON `miniprograms` (`authorizer_app_id`);--> statement-breakpoint
CREATE TABLE `wechat_sandbox_apps` (
	`app_id` text PRIMARY KEY NOT NULL,
	`refresh_token` text NOT NULL,
	`nickname` text,
	`signature` text,
	`head_image_media_id` text,
	`commit` text,
	`steering` text,
	`testers` text DEFAULT '[]' NOT NULL,
	`released_version` text
);
--> statement-breakpoint
CREATE TABLE `wechat_sandbox_audits` (
	`audit_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`app_id` text NOT NULL,
	`outcome` text NOT NULL,
	`reason` text,
	`decide_at` text NOT NULL,
	`pushed_at` text
);
--> statement-breakpoint
CREATE TABLE `wechat_credentials` (
	`name` text PRIMARY KEY NOT NULL,
	`sealed_value` text,
	`expires_at` text,
	`lease_holder` text,
	`lease_until` text,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);

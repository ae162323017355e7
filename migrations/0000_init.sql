CREATE TABLE `api_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`token_hash` text NOT NULL,
	`masked_token` text NOT NULL,
	`encrypted_secret` text NOT NULL,
	`scopes` text DEFAULT '[]' NOT NULL,
	`plan` text,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_used` text,
	`expires_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_token_hash` ON `api_keys` (`token_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_user` ON `api_keys` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`email` text NOT NULL,
	`full_name` text,
	`casdoor_id` text NOT NULL,
	`role` text DEFAULT 'user' NOT NULL,
	`plan` text DEFAULT 'free' NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_casdoor_id` ON `users` (`casdoor_id`);--> statement-breakpoint
CREATE INDEX `users_email` ON `users` (`email`);--> statement-breakpoint
CREATE TABLE `countries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`iso3` text NOT NULL,
	`phone_code` text,
	`currency_code` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `countries_code` ON `countries` (`code`);--> statement-breakpoint
CREATE TABLE `tax_rates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`country_code` text NOT NULL,
	`region_code` text,
	`country_name` text NOT NULL,
	`region_name` text,
	`tax_type` text NOT NULL,
	`tax_name_local` text,
	`tax_name_en` text NOT NULL,
	`tax_abbr` text,
	`rate_level` text NOT NULL,
	`rate_level_name` text,
	`rate_value_scaled` integer NOT NULL,
	`effective_from` text NOT NULL,
	`effective_to` text,
	`currency_code` text,
	`eu_member` integer DEFAULT false NOT NULL,
	`oecd_member` integer DEFAULT false NOT NULL,
	`tax_id_format` text,
	`tax_id_pattern` text,
	`filing_frequency` text,
	`applicable_scope` text,
	`excluded_scope` text,
	`data_source` text NOT NULL,
	`source_url` text,
	`version_date` text NOT NULL,
	`last_sync_time` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tax_rates_national_key` ON `tax_rates` (`country_code`,`tax_type`,`rate_level`,`effective_from`) WHERE "tax_rates"."region_code" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `tax_rates_regional_key` ON `tax_rates` (`country_code`,`region_code`,`tax_type`,`rate_level`,`effective_from`) WHERE "tax_rates"."region_code" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `tax_rates_current_by_country` ON `tax_rates` (`country_code`,`region_code`,`tax_type`) WHERE "tax_rates"."effective_to" IS NULL;--> statement-breakpoint
CREATE INDEX `tax_rates_current_by_type` ON `tax_rates` (`tax_type`,`country_code`) WHERE "tax_rates"."effective_to" IS NULL;
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`action` text NOT NULL,
	`subject` text NOT NULL,
	`at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_log_tenant_at` ON `audit_log` (`tenant_id`,`at`);--> statement-breakpoint
CREATE TABLE `categories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` integer NOT NULL,
	`site_id` integer NOT NULL,
	`parent_id` integer,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`description` text,
	`position` integer DEFAULT 0 NOT NULL,
	`seo_title` text,
	`seo_description` text,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `categories_site_slug` ON `categories` (`site_id`,`slug`);--> statement-breakpoint
CREATE INDEX `categories_tenant` ON `categories` (`tenant_id`);--> statement-breakpoint
CREATE TABLE `content_categories` (
	`tenant_id` integer NOT NULL,
	`content_id` integer NOT NULL,
	`category_id` integer NOT NULL,
	PRIMARY KEY(`content_id`, `category_id`),
	FOREIGN KEY (`content_id`) REFERENCES `contents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `content_categories_category` ON `content_categories` (`category_id`);--> statement-breakpoint
CREATE TABLE `content_tags` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` integer NOT NULL,
	`site_id` integer NOT NULL,
	`type` text NOT NULL,
	`name` text NOT NULL,
	`definition` text NOT NULL,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `content_tags_site_name` ON `content_tags` (`site_id`,`name`);--> statement-breakpoint
CREATE TABLE `content_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` integer NOT NULL,
	`content_id` integer NOT NULL,
	`version` integer NOT NULL,
	`title` text NOT NULL,
	`intro` text NOT NULL,
	`body_markdown` text NOT NULL,
	`saved_by` integer,
	`saved_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`content_id`) REFERENCES `contents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `content_versions_content_version` ON `content_versions` (`content_id`,`version`);--> statement-breakpoint
CREATE TABLE `contents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` integer NOT NULL,
	`site_id` integer NOT NULL,
	`title` text NOT NULL,
	`slug` text NOT NULL,
	`intro` text DEFAULT '' NOT NULL,
	`body_markdown` text DEFAULT '' NOT NULL,
	`body_html` text DEFAULT '' NOT NULL,
	`cover_images` text,
	`status` text DEFAULT 'draft' NOT NULL,
	`publish_at` text,
	`author_id` integer,
	`language` text NOT NULL,
	`translation_of` integer,
	`tags` text DEFAULT '[]' NOT NULL,
	`seo_title` text,
	`seo_description` text,
	`canonical` text,
	`noindex` integer DEFAULT false NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contents_site_language_slug` ON `contents` (`site_id`,`language`,`slug`);--> statement-breakpoint
CREATE INDEX `contents_site_status_publish` ON `contents` (`site_id`,`status`,`publish_at`);--> statement-breakpoint
CREATE INDEX `contents_tenant` ON `contents` (`tenant_id`);--> statement-breakpoint
CREATE TABLE `sites` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` integer NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`primary_domain` text,
	`aliases` text DEFAULT '[]' NOT NULL,
	`default_language` text DEFAULT 'en' NOT NULL,
	`languages` text DEFAULT '[]' NOT NULL,
	`timezone` text DEFAULT 'UTC' NOT NULL,
	`theme` text DEFAULT 'default' NOT NULL,
	`seo_title_pattern` text DEFAULT '{title} · {site}' NOT NULL,
	`seo_description` text,
	`seo_image` text,
	`analytics` integer DEFAULT false NOT NULL,
	`content_version` integer DEFAULT 1 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sites_slug` ON `sites` (`slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `sites_primary_domain` ON `sites` (`primary_domain`);--> statement-breakpoint
CREATE INDEX `sites_tenant` ON `sites` (`tenant_id`);--> statement-breakpoint
CREATE TABLE `tenant_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` integer NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`masked_token` text NOT NULL,
	`site_ids` text,
	`scopes` text DEFAULT '[]' NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_by` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tenant_keys_token_hash` ON `tenant_keys` (`token_hash`);--> statement-breakpoint
CREATE INDEX `tenant_keys_tenant` ON `tenant_keys` (`tenant_id`);--> statement-breakpoint
CREATE TABLE `tenant_members` (
	`tenant_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`role` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`tenant_id`, `user_id`),
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `tenant_members_user` ON `tenant_members` (`user_id`);--> statement-breakpoint
CREATE TABLE `tenants` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`plan` text DEFAULT 'basic' NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tenants_slug` ON `tenants` (`slug`);
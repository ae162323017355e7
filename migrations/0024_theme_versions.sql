CREATE TABLE `media_uploads` (
	`key` text PRIMARY KEY NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `media_uploads_created` ON `media_uploads` (`created_at`);--> statement-breakpoint
CREATE TABLE `theme_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`site_id` integer NOT NULL,
	`name` text NOT NULL,
	`version` text NOT NULL,
	`live` integer DEFAULT false NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `theme_versions_version` ON `theme_versions` (`site_id`,`name`,`version`);--> statement-breakpoint
CREATE INDEX `theme_versions_stale` ON `theme_versions` (`live`,`updated_at`);
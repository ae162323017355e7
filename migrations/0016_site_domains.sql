CREATE TABLE `site_domains` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` integer NOT NULL,
	`site_id` integer NOT NULL,
	`host` text NOT NULL,
	`is_primary` integer DEFAULT false NOT NULL,
	`verification_token` text NOT NULL,
	`verified_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `site_domains_site_host` ON `site_domains` (`site_id`,`host`);--> statement-breakpoint
CREATE UNIQUE INDEX `site_domains_verified_host` ON `site_domains` (`host`) WHERE "site_domains"."verified_at" IS NOT NULL;--> statement-breakpoint
-- The host names claimed so far move over as claims to prove again: none was ever checked.
INSERT OR IGNORE INTO `site_domains` (`tenant_id`, `site_id`, `host`, `is_primary`, `verification_token`)
	SELECT `tenant_id`, `id`, `primary_domain`, 1, lower(hex(randomblob(16))) FROM `sites` WHERE `primary_domain` IS NOT NULL;--> statement-breakpoint
INSERT OR IGNORE INTO `site_domains` (`tenant_id`, `site_id`, `host`, `is_primary`, `verification_token`)
	SELECT `sites`.`tenant_id`, `sites`.`id`, `json_each`.`value`, 0, lower(hex(randomblob(16))) FROM `sites`, json_each(`sites`.`aliases`);--> statement-breakpoint
DROP INDEX `sites_primary_domain`;--> statement-breakpoint
ALTER TABLE `sites` DROP COLUMN `primary_domain`;--> statement-breakpoint
ALTER TABLE `sites` DROP COLUMN `aliases`;
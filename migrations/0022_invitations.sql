CREATE TABLE `tenant_invitations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` integer NOT NULL,
	`email` text NOT NULL,
	`role` text NOT NULL,
	`invited_by` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`invited_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tenant_invitations_tenant_email` ON `tenant_invitations` (`tenant_id`,`email`);--> statement-breakpoint
CREATE INDEX `tenant_invitations_email` ON `tenant_invitations` (`email`);--> statement-breakpoint
ALTER TABLE `audit_log` ADD `content_id` integer;--> statement-breakpoint
-- Entries written before the column name their content in the subject ("content 12", "content 12 at …", "content 12 (Title)").
UPDATE `audit_log` SET `content_id` = CAST(substr(`subject`, 9) AS INTEGER) WHERE `subject` LIKE 'content %' AND `content_id` IS NULL;

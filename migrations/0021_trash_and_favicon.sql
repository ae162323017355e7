ALTER TABLE `contents` ADD `deleted_at` text;--> statement-breakpoint
ALTER TABLE `contents` ADD `deleted_by` integer;--> statement-breakpoint
CREATE INDEX `contents_trash` ON `contents` (`tenant_id`,`deleted_at`) WHERE "contents"."deleted_at" IS NOT NULL;--> statement-breakpoint
ALTER TABLE `sites` ADD `favicon` text;
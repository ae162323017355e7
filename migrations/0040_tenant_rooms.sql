CREATE TABLE `tenant_rooms` (
	`tenant_id` integer NOT NULL,
	`kind` text NOT NULL,
	`used` integer NOT NULL,
	`room` integer NOT NULL,
	PRIMARY KEY(`tenant_id`, `kind`),
	CONSTRAINT "within_room" CHECK("tenant_rooms"."used" <= "tenant_rooms"."room")
);
--> statement-breakpoint
ALTER TABLE `content_versions` ADD `text_bytes` integer GENERATED ALWAYS AS (256 + length(CAST(title AS BLOB)) + length(CAST(intro AS BLOB)) + length(CAST(body_markdown AS BLOB))) VIRTUAL;--> statement-breakpoint
CREATE INDEX `content_versions_tenant_bytes` ON `content_versions` (`tenant_id`,`text_bytes`);--> statement-breakpoint
ALTER TABLE `theme_versions` ADD `bytes` integer DEFAULT 0 NOT NULL;
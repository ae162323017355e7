CREATE TABLE `text_room` (
	`tenant_id` integer PRIMARY KEY NOT NULL,
	`used_bytes` integer NOT NULL,
	`room_bytes` integer NOT NULL,
	CONSTRAINT "text_within_room" CHECK("text_room"."used_bytes" <= "text_room"."room_bytes")
);
--> statement-breakpoint
ALTER TABLE `content_versions` ADD `text_bytes` integer GENERATED ALWAYS AS (length(CAST(title AS BLOB)) + length(CAST(intro AS BLOB)) + length(CAST(body_markdown AS BLOB))) VIRTUAL;--> statement-breakpoint
CREATE INDEX `content_versions_tenant_bytes` ON `content_versions` (`tenant_id`,`text_bytes`);
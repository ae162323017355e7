CREATE TABLE `tenant_rooms` (
	`tenant_id` integer NOT NULL,
	`kind` text NOT NULL,
	`used` integer NOT NULL,
	`room` integer NOT NULL,
	PRIMARY KEY(`tenant_id`, `kind`),
	CONSTRAINT "within_text_room" CHECK("tenant_rooms"."kind" <> 'text' OR "tenant_rooms"."used" <= "tenant_rooms"."room"),
	CONSTRAINT "within_sites_room" CHECK("tenant_rooms"."kind" <> 'sites' OR "tenant_rooms"."used" <= "tenant_rooms"."room"),
	CONSTRAINT "within_themes_room" CHECK("tenant_rooms"."kind" <> 'themes' OR "tenant_rooms"."used" <= "tenant_rooms"."room"),
	CONSTRAINT "within_categories_room" CHECK("tenant_rooms"."kind" <> 'categories' OR "tenant_rooms"."used" <= "tenant_rooms"."room"),
	CONSTRAINT "within_tags_room" CHECK("tenant_rooms"."kind" <> 'tags' OR "tenant_rooms"."used" <= "tenant_rooms"."room"),
	CONSTRAINT "within_ads_room" CHECK("tenant_rooms"."kind" <> 'ads' OR "tenant_rooms"."used" <= "tenant_rooms"."room"),
	CONSTRAINT "within_redirects_room" CHECK("tenant_rooms"."kind" <> 'redirects' OR "tenant_rooms"."used" <= "tenant_rooms"."room"),
	CONSTRAINT "within_keys_room" CHECK("tenant_rooms"."kind" <> 'keys' OR "tenant_rooms"."used" <= "tenant_rooms"."room")
);
--> statement-breakpoint
ALTER TABLE `content_versions` ADD `text_bytes` integer GENERATED ALWAYS AS (256 + length(CAST(title AS BLOB)) + length(CAST(intro AS BLOB)) + length(CAST(body_markdown AS BLOB))) VIRTUAL;--> statement-breakpoint
CREATE INDEX `content_versions_tenant_bytes` ON `content_versions` (`tenant_id`,`text_bytes`);--> statement-breakpoint
ALTER TABLE `theme_versions` ADD `bytes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `ads_tenant` ON `ads` (`tenant_id`);--> statement-breakpoint
CREATE INDEX `content_tags_tenant` ON `content_tags` (`tenant_id`);--> statement-breakpoint
CREATE INDEX `redirects_tenant` ON `redirects` (`tenant_id`);
ALTER TABLE `webhook_deliveries` ADD `replay` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `webhook_events` ADD `replays` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `webhook_events` ADD `replayed_at` text;
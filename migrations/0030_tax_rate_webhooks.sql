CREATE TABLE `tax_webhook_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` text NOT NULL,
	`endpoint_id` integer NOT NULL,
	`attempt` integer NOT NULL,
	`status` integer,
	`latency_ms` integer NOT NULL,
	`error` text,
	`attempted_at` text NOT NULL,
	`next_attempt_at` text,
	FOREIGN KEY (`event_id`) REFERENCES `tax_webhook_events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `tax_webhook_deliveries_endpoint` ON `tax_webhook_deliveries` (`endpoint_id`,`id`);--> statement-breakpoint
CREATE INDEX `tax_webhook_deliveries_event` ON `tax_webhook_deliveries` (`event_id`);--> statement-breakpoint
CREATE TABLE `tax_webhook_endpoints` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`key_id` integer,
	`url` text NOT NULL,
	`countries` text,
	`encrypted_secret` text NOT NULL,
	`previous_encrypted_secret` text,
	`previous_secret_until` text,
	`after_change_id` integer NOT NULL,
	`disabled_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `tax_webhook_endpoints_user` ON `tax_webhook_endpoints` (`user_id`);--> statement-breakpoint
CREATE INDEX `tax_webhook_endpoints_cursor` ON `tax_webhook_endpoints` (`after_change_id`);--> statement-breakpoint
CREATE TABLE `tax_webhook_events` (
	`id` text PRIMARY KEY NOT NULL,
	`endpoint_id` integer NOT NULL,
	`change_id` integer NOT NULL,
	`payload` text NOT NULL,
	`created_at` text NOT NULL,
	`outcome` text DEFAULT 'pending' NOT NULL,
	FOREIGN KEY (`endpoint_id`) REFERENCES `tax_webhook_endpoints`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tax_webhook_events_endpoint_change` ON `tax_webhook_events` (`endpoint_id`,`change_id`);--> statement-breakpoint
CREATE INDEX `tax_webhook_events_outcome_created` ON `tax_webhook_events` (`outcome`,`created_at`);
CREATE TABLE `disabled_webhook_urls` (
	`app_id` integer NOT NULL,
	`url` text NOT NULL,
	`disabled_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `disabled_webhook_urls_app_url` ON `disabled_webhook_urls` (`app_id`,`url`);--> statement-breakpoint
CREATE TABLE `pickup_tasks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`app_id` integer NOT NULL,
	`request_id` text NOT NULL,
	`reference_order_number` text NOT NULL,
	`active_reference` text,
	`service_code` text NOT NULL,
	`authorize_id` text NOT NULL,
	`sender_address` text NOT NULL,
	`loading_address` text NOT NULL,
	`consignee_address` text NOT NULL,
	`loading_time` text NOT NULL,
	`delivery_time` text NOT NULL,
	`item_lines` text NOT NULL,
	`webhook_url` text NOT NULL,
	`sign_string` text NOT NULL,
	`meta_data` text,
	`process` text DEFAULT 'pending' NOT NULL,
	`state` integer DEFAULT true NOT NULL,
	`carrier_order_id` text,
	`failure_reason` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`app_id`) REFERENCES `apps`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pickup_tasks_request` ON `pickup_tasks` (`app_id`,`request_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `pickup_tasks_active_reference` ON `pickup_tasks` (`app_id`,`active_reference`);--> statement-breakpoint
CREATE INDEX `pickup_tasks_app_process` ON `pickup_tasks` (`app_id`,`process`,`id`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` text NOT NULL,
	`task_id` integer NOT NULL,
	`attempt` integer NOT NULL,
	`url` text NOT NULL,
	`status` integer,
	`latency_ms` integer NOT NULL,
	`response_excerpt` text,
	`error` text,
	`attempted_at` text NOT NULL,
	`next_attempt_at` text,
	FOREIGN KEY (`event_id`) REFERENCES `webhook_events`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_task` ON `webhook_deliveries` (`task_id`,`id`);--> statement-breakpoint
CREATE TABLE `webhook_events` (
	`id` text PRIMARY KEY NOT NULL,
	`task_id` integer NOT NULL,
	`type` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` text NOT NULL,
	`outcome` text DEFAULT 'pending' NOT NULL,
	FOREIGN KEY (`task_id`) REFERENCES `pickup_tasks`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_events_task` ON `webhook_events` (`task_id`,`created_at`);
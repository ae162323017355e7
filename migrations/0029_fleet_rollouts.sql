CREATE TABLE `fleet_rollouts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` integer NOT NULL,
	`actor_key_id` integer,
	`template_id` integer NOT NULL,
	`template_version` text NOT NULL,
	`phases` text NOT NULL,
	`step_minutes` integer NOT NULL,
	`expedite_budget` integer NOT NULL,
	`expedites_used` integer DEFAULT 0 NOT NULL,
	`max_js_errors` integer NOT NULL,
	`total` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`finished_at` text,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `fleet_rollouts_owner` ON `fleet_rollouts` (`owner_id`,`id`);--> statement-breakpoint
CREATE INDEX `fleet_rollouts_running` ON `fleet_rollouts` (`finished_at`);--> statement-breakpoint
CREATE TABLE `fleet_rollout_targets` (
	`rollout_id` integer NOT NULL,
	`miniprogram_id` integer NOT NULL,
	`state` text DEFAULT 'pending' NOT NULL,
	`turn` integer DEFAULT 0 NOT NULL,
	`percentage` integer,
	`phased_at` text,
	`audit_id` text,
	`submissions` integer DEFAULT 0 NOT NULL,
	`expedited` integer DEFAULT false NOT NULL,
	`last_step` text NOT NULL,
	`error` text,
	`next_at` text NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`rollout_id`, `miniprogram_id`),
	FOREIGN KEY (`rollout_id`) REFERENCES `fleet_rollouts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`miniprogram_id`) REFERENCES `miniprograms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `fleet_rollout_targets_due` ON `fleet_rollout_targets` (`next_at`);--> statement-breakpoint
CREATE INDEX `fleet_rollout_targets_miniprogram` ON `fleet_rollout_targets` (`miniprogram_id`);
CREATE TABLE `job_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job` text NOT NULL,
	`trigger` text NOT NULL,
	`source` text NOT NULL,
	`started_at` text NOT NULL,
	`finished_at` text,
	`status` text NOT NULL,
	`counts` text,
	`error` text
);
--> statement-breakpoint
CREATE INDEX `job_runs_job_started` ON `job_runs` (`job`,`started_at`);--> statement-breakpoint
CREATE TABLE `currencies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`symbol` text,
	`numeric_code` text,
	`minor_units` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `currencies_code` ON `currencies` (`code`);--> statement-breakpoint
CREATE TABLE `hs_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`version` text NOT NULL,
	`code` text NOT NULL,
	`description` text NOT NULL,
	`parent` text,
	`level` integer NOT NULL,
	`section` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hs_codes_version_code` ON `hs_codes` (`version`,`code`);--> statement-breakpoint
CREATE INDEX `hs_codes_version_parent` ON `hs_codes` (`version`,`parent`);--> statement-breakpoint
CREATE TABLE `languages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`name_en` text NOT NULL,
	`base_code` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `languages_code` ON `languages` (`code`);--> statement-breakpoint
CREATE TABLE `platforms` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`website` text NOT NULL,
	`regions` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `platforms_code` ON `platforms` (`code`);--> statement-breakpoint
CREATE TABLE `units` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`name_zh` text,
	`origin` text NOT NULL,
	`kind` text,
	`symbol` text,
	`ref_unit` integer,
	`factor` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `units_code` ON `units` (`code`);--> statement-breakpoint
CREATE INDEX `units_origin` ON `units` (`origin`,`code`);--> statement-breakpoint
CREATE TABLE `zones` (
	`id` integer PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`name_en` text NOT NULL,
	`parsent` integer NOT NULL,
	`type` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `zones_code` ON `zones` (`code`);--> statement-breakpoint
CREATE INDEX `zones_parsent` ON `zones` (`parsent`);--> statement-breakpoint
CREATE INDEX `zones_name_en` ON `zones` (`name_en`);
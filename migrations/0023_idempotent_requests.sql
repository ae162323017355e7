CREATE TABLE `idempotent_requests` (
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`digest` text NOT NULL,
	`status` integer,
	`content_type` text,
	`body` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`scope`, `key`)
);

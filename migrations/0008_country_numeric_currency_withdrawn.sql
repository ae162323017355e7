ALTER TABLE `countries` ADD `numeric_code` text;--> statement-breakpoint
ALTER TABLE `currencies` ADD `withdrawn` text;
DROP INDEX `tax_rates_current_by_country`;--> statement-breakpoint
DROP INDEX `tax_rates_current_by_type`;--> statement-breakpoint
ALTER TABLE `tax_rates` ADD `rate_definition` text DEFAULT 'statutory' NOT NULL;--> statement-breakpoint
CREATE INDEX `tax_rates_by_country` ON `tax_rates` (`country_code`,`region_code`,`tax_type`);--> statement-breakpoint
CREATE INDEX `tax_rates_by_type` ON `tax_rates` (`tax_type`,`country_code`);--> statement-breakpoint
-- Corporate income tax records carry the OECD combined statutory rate (docs/tax.md).
UPDATE `tax_rates` SET `rate_definition` = 'oecd_combined_statutory' WHERE `tax_type` = 'CorporateTax';

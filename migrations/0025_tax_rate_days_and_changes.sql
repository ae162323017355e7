CREATE TABLE `tax_rate_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`changed_at` text NOT NULL,
	`kind` text NOT NULL,
	`rate_id` integer NOT NULL,
	`country_code` text NOT NULL,
	`region_code` text,
	`tax_type` text NOT NULL,
	`rate_level` text NOT NULL,
	`rate_value_scaled` integer NOT NULL,
	`previous_rate_value_scaled` integer,
	`effective_from` text NOT NULL,
	`effective_to` text,
	`data_source` text NOT NULL,
	`source_url` text
);
--> statement-breakpoint
CREATE INDEX `tax_rate_changes_by_time` ON `tax_rate_changes` (`changed_at`);--> statement-breakpoint
CREATE INDEX `tax_rate_changes_by_country` ON `tax_rate_changes` (`country_code`,`id`);--> statement-breakpoint
DROP INDEX `tax_rates_current_by_country`;--> statement-breakpoint
DROP INDEX `tax_rates_current_by_type`;--> statement-breakpoint
ALTER TABLE `tax_rates` ADD `rate_definition` text DEFAULT 'statutory' NOT NULL;--> statement-breakpoint
CREATE INDEX `tax_rates_by_country` ON `tax_rates` (`country_code`,`region_code`,`tax_type`);--> statement-breakpoint
CREATE INDEX `tax_rates_by_type` ON `tax_rates` (`tax_type`,`country_code`);--> statement-breakpoint
-- Corporate income tax records carry the OECD combined statutory rate (docs/tax.md).
UPDATE `tax_rates` SET `rate_definition` = 'oecd_combined_statutory' WHERE `tax_type` = 'CorporateTax';
--> statement-breakpoint
-- The change feed (T12) and taxrate.changed webhooks read what these triggers write, whoever changed the record.
CREATE TRIGGER `tax_rates_added` AFTER INSERT ON `tax_rates` BEGIN
  INSERT INTO tax_rate_changes (changed_at, kind, rate_id, country_code, region_code, tax_type, rate_level, rate_value_scaled, effective_from, effective_to, data_source, source_url)
  VALUES (strftime('%Y-%m-%dT%H:%M:%S', 'now'), 'added', new.id, new.country_code, new.region_code, new.tax_type, new.rate_level, new.rate_value_scaled, new.effective_from, new.effective_to, new.data_source, new.source_url);
END;
--> statement-breakpoint
CREATE TRIGGER `tax_rates_ended` AFTER UPDATE OF `effective_to` ON `tax_rates` WHEN new.effective_to IS NOT NULL AND old.effective_to IS NOT new.effective_to BEGIN
  INSERT INTO tax_rate_changes (changed_at, kind, rate_id, country_code, region_code, tax_type, rate_level, rate_value_scaled, effective_from, effective_to, data_source, source_url)
  VALUES (strftime('%Y-%m-%dT%H:%M:%S', 'now'), 'ended', new.id, new.country_code, new.region_code, new.tax_type, new.rate_level, new.rate_value_scaled, new.effective_from, new.effective_to, new.data_source, new.source_url);
END;
--> statement-breakpoint
CREATE TRIGGER `tax_rates_corrected` AFTER UPDATE OF `rate_value_scaled`, `effective_from` ON `tax_rates` WHEN old.rate_value_scaled IS NOT new.rate_value_scaled OR old.effective_from IS NOT new.effective_from BEGIN
  INSERT INTO tax_rate_changes (changed_at, kind, rate_id, country_code, region_code, tax_type, rate_level, rate_value_scaled, previous_rate_value_scaled, effective_from, effective_to, data_source, source_url)
  VALUES (strftime('%Y-%m-%dT%H:%M:%S', 'now'), 'corrected', new.id, new.country_code, new.region_code, new.tax_type, new.rate_level, new.rate_value_scaled, old.rate_value_scaled, new.effective_from, new.effective_to, new.data_source, new.source_url);
END;

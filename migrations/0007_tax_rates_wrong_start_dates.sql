-- Records the seed of 2025-08 wrote with a wrong start date (seed/SOURCES.md): the corrected seed
-- inserts them with the right one, and closes their predecessors where they now end.
DELETE FROM `tax_rates`
WHERE `region_code` IS NULL AND `data_source` = 'ENCYCLOPEDIA' AND (
  (`country_code` = 'ZW' AND `tax_type` = 'VAT' AND `rate_level` = 'standard' AND `effective_from` = '2025-01-01T00:00:00')
  OR (`country_code` = 'PK' AND `tax_type` = 'GST' AND `rate_level` = 'standard' AND `effective_from` = '2023-07-01T00:00:00')
);

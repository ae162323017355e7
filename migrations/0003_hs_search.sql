-- Full-text search over HS descriptions (O6 `keywords`), kept in step with hs_codes by triggers.
CREATE VIRTUAL TABLE `hs_codes_fts` USING fts5(`description`, content='hs_codes', content_rowid='id', tokenize='porter unicode61');
--> statement-breakpoint
CREATE TRIGGER `hs_codes_fts_insert` AFTER INSERT ON `hs_codes` BEGIN
  INSERT INTO hs_codes_fts(rowid, description) VALUES (new.id, new.description);
END;
--> statement-breakpoint
CREATE TRIGGER `hs_codes_fts_delete` AFTER DELETE ON `hs_codes` BEGIN
  INSERT INTO hs_codes_fts(hs_codes_fts, rowid, description) VALUES ('delete', old.id, old.description);
END;
--> statement-breakpoint
CREATE TRIGGER `hs_codes_fts_update` AFTER UPDATE OF `description` ON `hs_codes` BEGIN
  INSERT INTO hs_codes_fts(hs_codes_fts, rowid, description) VALUES ('delete', old.id, old.description);
  INSERT INTO hs_codes_fts(rowid, description) VALUES (new.id, new.description);
END;

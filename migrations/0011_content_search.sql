-- Full-text search over contents (C1 `q`), kept in step with contents by triggers.
CREATE VIRTUAL TABLE `contents_fts` USING fts5(`title`, `intro`, `body_markdown`, content='contents', content_rowid='id', tokenize='porter unicode61');
--> statement-breakpoint
CREATE TRIGGER `contents_fts_insert` AFTER INSERT ON `contents` BEGIN
  INSERT INTO contents_fts(rowid, title, intro, body_markdown) VALUES (new.id, new.title, new.intro, new.body_markdown);
END;
--> statement-breakpoint
CREATE TRIGGER `contents_fts_delete` AFTER DELETE ON `contents` BEGIN
  INSERT INTO contents_fts(contents_fts, rowid, title, intro, body_markdown) VALUES ('delete', old.id, old.title, old.intro, old.body_markdown);
END;
--> statement-breakpoint
CREATE TRIGGER `contents_fts_update` AFTER UPDATE OF `title`, `intro`, `body_markdown` ON `contents` BEGIN
  INSERT INTO contents_fts(contents_fts, rowid, title, intro, body_markdown) VALUES ('delete', old.id, old.title, old.intro, old.body_markdown);
  INSERT INTO contents_fts(rowid, title, intro, body_markdown) VALUES (new.id, new.title, new.intro, new.body_markdown);
END;

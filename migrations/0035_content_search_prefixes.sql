-- A prefix index of three characters: a search word matches the longer words it begins (`markt` finds
-- `Markthalle`), and the shortest prefixes a query may hold are index lookups, not scans of the vocabulary.
DROP TABLE `contents_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `contents_fts` USING fts5(`title`, `intro`, `body_markdown`, content='contents', content_rowid='id', tokenize='porter unicode61', prefix='3');
--> statement-breakpoint
INSERT INTO `contents_fts`(`contents_fts`) VALUES ('rebuild');

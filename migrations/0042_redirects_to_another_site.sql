-- A redirect to `//host` or `/\host` sent readers to another site (browsers read both as an address
-- without its scheme); the admin API refuses them since this migration, and those saved before go.
DELETE FROM `redirects` WHERE substr(`to_url`, 1, 2) IN ('//', '/\');

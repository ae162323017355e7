-- Subdivisions now come from ISO 3166-2 as iso-codes 4.20.0 publishes it (seed/SOURCES.md): the
-- earlier source's rows (ids from 1000) go, and the seed inserts the ISO ones with their new ids.
DELETE FROM `zones` WHERE `id` >= 1000;

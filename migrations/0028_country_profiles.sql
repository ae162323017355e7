-- Countries: capital, regions, languages, time zones and the rest (restcountries' fields), as one JSON column.
ALTER TABLE `countries` ADD `profile` text;

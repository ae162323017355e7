ALTER TABLE `media` ADD `width` integer;--> statement-breakpoint
ALTER TABLE `media` ADD `height` integer;--> statement-breakpoint
ALTER TABLE `media` ADD `variant_widths` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
-- Addresses of a site's own media stored absolute (`http://<service host>/media/<tenant>/<site>/<key>`, as the
-- console's "Copy address" gave them) become site-relative, so that the site's own host serves them whatever its
-- domain. Each `://` of a value is looked at once; its address is rewritten when the path after its host is a media
-- key of the same site, whatever the host (the key is random: no other host holds it).
UPDATE `contents` SET `body_markdown` = (
  WITH RECURSIVE scan(body, at) AS (
    SELECT `contents`.`body_markdown`, instr(`contents`.`body_markdown`, '://')
    UNION ALL
    SELECT
      CASE WHEN m.id IS NULL THEN body ELSE substr(body, 1, at - (CASE WHEN substr(body, at - 5, 5) = 'https' THEN 5 WHEN substr(body, at - 4, 4) = 'http' THEN 4 ELSE 0 END) - 1) || substr(body, at + 2 + instr(substr(body, at + 3), '/')) END,
      CASE
        WHEN m.id IS NOT NULL THEN iif(instr(substr(body, at + 2 + instr(substr(body, at + 3), '/')), '://') = 0, 0, at - (CASE WHEN substr(body, at - 5, 5) = 'https' THEN 5 WHEN substr(body, at - 4, 4) = 'http' THEN 4 ELSE 0 END) - 1 + instr(substr(body, at + 2 + instr(substr(body, at + 3), '/')), '://'))
        ELSE iif(instr(substr(body, at + 3), '://') = 0, 0, at + 2 + instr(substr(body, at + 3), '://'))
      END
    FROM scan LEFT JOIN `media` m
      ON m.`tenant_id` = `contents`.`tenant_id` AND m.`site_id` = `contents`.`site_id`
      AND (CASE WHEN substr(body, at - 5, 5) = 'https' THEN 5 WHEN substr(body, at - 4, 4) = 'http' THEN 4 ELSE 0 END) > 0
      AND instr(substr(body, at + 3), '/') BETWEEN 2 AND 254
      AND substr(body, at + 3, instr(substr(body, at + 3), '/') - 1) NOT GLOB '*[^A-Za-z0-9.:-]*'
      AND substr(body, at + 2 + instr(substr(body, at + 3), '/'), 7 + length(m.`key`)) = '/media/' || m.`key`
    WHERE at > 0
  )
  SELECT body FROM scan WHERE at = 0
)
WHERE `body_markdown` LIKE '%://%/media/%';
--> statement-breakpoint
UPDATE `contents` SET `body_html` = (
  WITH RECURSIVE scan(body, at) AS (
    SELECT `contents`.`body_html`, instr(`contents`.`body_html`, '://')
    UNION ALL
    SELECT
      CASE WHEN m.id IS NULL THEN body ELSE substr(body, 1, at - (CASE WHEN substr(body, at - 5, 5) = 'https' THEN 5 WHEN substr(body, at - 4, 4) = 'http' THEN 4 ELSE 0 END) - 1) || substr(body, at + 2 + instr(substr(body, at + 3), '/')) END,
      CASE
        WHEN m.id IS NOT NULL THEN iif(instr(substr(body, at + 2 + instr(substr(body, at + 3), '/')), '://') = 0, 0, at - (CASE WHEN substr(body, at - 5, 5) = 'https' THEN 5 WHEN substr(body, at - 4, 4) = 'http' THEN 4 ELSE 0 END) - 1 + instr(substr(body, at + 2 + instr(substr(body, at + 3), '/')), '://'))
        ELSE iif(instr(substr(body, at + 3), '://') = 0, 0, at + 2 + instr(substr(body, at + 3), '://'))
      END
    FROM scan LEFT JOIN `media` m
      ON m.`tenant_id` = `contents`.`tenant_id` AND m.`site_id` = `contents`.`site_id`
      AND (CASE WHEN substr(body, at - 5, 5) = 'https' THEN 5 WHEN substr(body, at - 4, 4) = 'http' THEN 4 ELSE 0 END) > 0
      AND instr(substr(body, at + 3), '/') BETWEEN 2 AND 254
      AND substr(body, at + 3, instr(substr(body, at + 3), '/') - 1) NOT GLOB '*[^A-Za-z0-9.:-]*'
      AND substr(body, at + 2 + instr(substr(body, at + 3), '/'), 7 + length(m.`key`)) = '/media/' || m.`key`
    WHERE at > 0
  )
  SELECT body FROM scan WHERE at = 0
)
WHERE `body_html` LIKE '%://%/media/%';
--> statement-breakpoint
UPDATE `contents` SET `cover_images` = (
  WITH RECURSIVE scan(body, at) AS (
    SELECT `contents`.`cover_images`, instr(`contents`.`cover_images`, '://')
    UNION ALL
    SELECT
      CASE WHEN m.id IS NULL THEN body ELSE substr(body, 1, at - (CASE WHEN substr(body, at - 5, 5) = 'https' THEN 5 WHEN substr(body, at - 4, 4) = 'http' THEN 4 ELSE 0 END) - 1) || substr(body, at + 2 + instr(substr(body, at + 3), '/')) END,
      CASE
        WHEN m.id IS NOT NULL THEN iif(instr(substr(body, at + 2 + instr(substr(body, at + 3), '/')), '://') = 0, 0, at - (CASE WHEN substr(body, at - 5, 5) = 'https' THEN 5 WHEN substr(body, at - 4, 4) = 'http' THEN 4 ELSE 0 END) - 1 + instr(substr(body, at + 2 + instr(substr(body, at + 3), '/')), '://'))
        ELSE iif(instr(substr(body, at + 3), '://') = 0, 0, at + 2 + instr(substr(body, at + 3), '://'))
      END
    FROM scan LEFT JOIN `media` m
      ON m.`tenant_id` = `contents`.`tenant_id` AND m.`site_id` = `contents`.`site_id`
      AND (CASE WHEN substr(body, at - 5, 5) = 'https' THEN 5 WHEN substr(body, at - 4, 4) = 'http' THEN 4 ELSE 0 END) > 0
      AND instr(substr(body, at + 3), '/') BETWEEN 2 AND 254
      AND substr(body, at + 3, instr(substr(body, at + 3), '/') - 1) NOT GLOB '*[^A-Za-z0-9.:-]*'
      AND substr(body, at + 2 + instr(substr(body, at + 3), '/'), 7 + length(m.`key`)) = '/media/' || m.`key`
    WHERE at > 0
  )
  SELECT body FROM scan WHERE at = 0
)
WHERE `cover_images` LIKE '%://%/media/%';
--> statement-breakpoint
UPDATE `sites` SET `seo_image` = (
  WITH RECURSIVE scan(body, at) AS (
    SELECT `sites`.`seo_image`, instr(`sites`.`seo_image`, '://')
    UNION ALL
    SELECT
      CASE WHEN m.id IS NULL THEN body ELSE substr(body, 1, at - (CASE WHEN substr(body, at - 5, 5) = 'https' THEN 5 WHEN substr(body, at - 4, 4) = 'http' THEN 4 ELSE 0 END) - 1) || substr(body, at + 2 + instr(substr(body, at + 3), '/')) END,
      CASE
        WHEN m.id IS NOT NULL THEN iif(instr(substr(body, at + 2 + instr(substr(body, at + 3), '/')), '://') = 0, 0, at - (CASE WHEN substr(body, at - 5, 5) = 'https' THEN 5 WHEN substr(body, at - 4, 4) = 'http' THEN 4 ELSE 0 END) - 1 + instr(substr(body, at + 2 + instr(substr(body, at + 3), '/')), '://'))
        ELSE iif(instr(substr(body, at + 3), '://') = 0, 0, at + 2 + instr(substr(body, at + 3), '://'))
      END
    FROM scan LEFT JOIN `media` m
      ON m.`tenant_id` = `sites`.`tenant_id` AND m.`site_id` = `sites`.`id`
      AND (CASE WHEN substr(body, at - 5, 5) = 'https' THEN 5 WHEN substr(body, at - 4, 4) = 'http' THEN 4 ELSE 0 END) > 0
      AND instr(substr(body, at + 3), '/') BETWEEN 2 AND 254
      AND substr(body, at + 3, instr(substr(body, at + 3), '/') - 1) NOT GLOB '*[^A-Za-z0-9.:-]*'
      AND substr(body, at + 2 + instr(substr(body, at + 3), '/'), 7 + length(m.`key`)) = '/media/' || m.`key`
    WHERE at > 0
  )
  SELECT body FROM scan WHERE at = 0
)
WHERE `seo_image` LIKE '%://%/media/%';

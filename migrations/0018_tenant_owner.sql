ALTER TABLE `tenants` ADD `owner_id` integer REFERENCES users(id);--> statement-breakpoint
CREATE INDEX `tenants_owner` ON `tenants` (`owner_id`);--> statement-breakpoint
-- A tenant made before owners were recorded belongs to its first owner.
UPDATE `tenants` SET `owner_id` = (SELECT MIN(`user_id`) FROM `tenant_members` WHERE `tenant_members`.`tenant_id` = `tenants`.`id` AND `role` = 'owner') WHERE `owner_id` IS NULL;

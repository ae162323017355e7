CREATE TABLE `account_rooms` (
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`used` integer NOT NULL,
	`room` integer NOT NULL,
	PRIMARY KEY(`user_id`, `kind`),
	CONSTRAINT "within_account_room" CHECK("account_rooms"."used" <= "account_rooms"."room")
);

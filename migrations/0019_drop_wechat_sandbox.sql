-- The WeChat sandbox's tables leave the production schema: the sandbox (never in production)
-- creates them on its first use (src/miniprograms/sandbox-tables.ts).
DROP TABLE `wechat_sandbox_apps`;--> statement-breakpoint
DROP TABLE `wechat_sandbox_audits`;
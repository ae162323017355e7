import { env } from "cloudflare:test";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { eq, is, Table } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as productionSchema from "../../src/db/schema";
import { ensureSandboxTables, sandboxApps, sandboxAppStates, sandboxAudits, sandboxQuotas } from "../../src/miniprograms/sandbox-tables";
import { database } from "../../src/platform/database";
import { createDemoMiniprogram } from "../../seed/miniprogram-demo";
import { createUser } from "../helpers/accounts";

type Column = { name: string; notnull: number; pk: number; dflt_value: string | null };

describe("the WeChat sandbox's tables", () => {
  it("are not in the production schema that drizzle-kit writes migrations from", () => {
    const tables = Object.values(productionSchema).filter((value) => is(value, Table));
    const names = tables.map((table) => getTableConfig(table as SQLiteTable).name);
    expect(names).toContain("miniprograms");
    expect(names.filter((name) => name.startsWith("wechat_sandbox"))).toEqual([]);
  });

  it.each([sandboxApps, sandboxAudits, sandboxAppStates, sandboxQuotas])(
    "are created by the sandbox as its Drizzle definitions say ($_.name)",
    async (table) => {
      await ensureSandboxTables(env);
      const config = getTableConfig(table);
      const { results } = await env.DB.prepare(`PRAGMA table_info(${config.name})`).all<Column>();
      const declared = config.columns.map((column) => ({
        name: column.name,
        notnull: column.notNull ? 1 : 0,
        pk: column.primary ? 1 : 0,
        dflt_value: column.default === undefined ? null : `'${JSON.stringify(column.default)}'`,
      }));
      expect(results.map(({ name, notnull, pk, dflt_value }) => ({ name, notnull, pk, dflt_value }))).toEqual(declared);
    },
  );
});

describe("npm run dev's demo mini-program", () => {
  it("is found again while the sandbox keeps its app, and authorized again once the sandbox has lost it", async () => {
    const owner = await createUser();
    const first = await createDemoMiniprogram(env, owner.id);
    expect(await createDemoMiniprogram(env, owner.id)).toEqual(first);
    // As a local D1 from before migration 0019 is: the sandbox's tables dropped, the configuration still authorized.
    await database(env).delete(sandboxApps).where(eq(sandboxApps.appId, first.appId));
    const again = await createDemoMiniprogram(env, owner.id);
    expect(again.id).toBe(first.id);
    expect(again.appId).not.toBe(first.appId);
    expect(await database(env).select().from(sandboxApps).where(eq(sandboxApps.appId, again.appId))).toHaveLength(1);
  });
});

import { and, eq } from "drizzle-orm";
import { ensureSandboxTables, sandboxApps } from "../src/miniprograms/sandbox-tables";
import { miniprograms } from "../src/miniprograms/schema";
import { authorizationLink, completeAuthorization, createMiniprogram, syncTemplates } from "../src/miniprograms/service";
import { pushSandboxTicket, SANDBOX_BASE, SANDBOX_PATH, upstreamOf } from "../src/miniprograms/upstream";
import { database } from "../src/platform/database";
import type { Bindings } from "../src/platform/env";

const DEMO_CONFIG_TYPE = "demo";

export interface DemoMiniprogram {
  id: number;
  appId: string;
}

/** Whether the sandbox still keeps that authorized app (its tables are created on first use). */
async function sandboxKnows(env: Bindings, appId: string): Promise<boolean> {
  await ensureSandboxTables(env);
  const [app] = await database(env).select().from(sandboxApps).where(eq(sandboxApps.appId, appId)).limit(1);
  return app !== undefined;
}

/** What the scheduled tasks do for group D before anyone calls it: a verify ticket pushed by the sandbox, its code templates copied to D1. */
export async function prepareSandbox(env: Bindings, waitUntil: (work: Promise<unknown>) => void) {
  await pushSandboxTicket(env, waitUntil);
  await syncTemplates({ db: database(env), env, upstream: upstreamOf(env, waitUntil) });
}

/**
 * Group D on a development machine: a verify ticket pushed by the sandbox, its code templates
 * copied to D1, and one configuration authorized through the sandbox's authorization page, owned
 * by `ownerId` (so the development key reaches it). Made once; later runs find it.
 */
export async function createDemoMiniprogram(env: Bindings, ownerId: number): Promise<DemoMiniprogram> {
  const pending: Promise<unknown>[] = [];
  const waitUntil = (work: Promise<unknown>) => void pending.push(work);
  const db = database(env);
  const ctx = { db, env, upstream: upstreamOf(env, waitUntil) };
  await prepareSandbox(env, waitUntil);
  // Found by its config type: D4 renames it.
  const [existing] = await db
    .select()
    .from(miniprograms)
    .where(and(eq(miniprograms.ownerId, ownerId), eq(miniprograms.configType, DEMO_CONFIG_TYPE)))
    .limit(1);
  // A local D1 from before migration 0019 lost the sandbox's tables: an app the sandbox no longer knows is authorized again.
  if (existing?.authorizerAppId && (await sandboxKnows(env, existing.authorizerAppId))) return { id: existing.id, appId: existing.authorizerAppId };
  const actor = { userId: ownerId, keyId: null };
  const mp = existing ?? (await createMiniprogram(db, actor, { name: "Demo Mini Shop", configType: DEMO_CONFIG_TYPE }));
  const { authorizeUrl } = await authorizationLink(ctx, actor, mp, "http://localhost");
  // The owner's consent on the sandbox's authorization page (through the transport, in-process), then their redirect back to us.
  const consent = await ctx.upstream.transport.fetch(new Request(authorizeUrl.replace(`http://localhost${SANDBOX_PATH}`, SANDBOX_BASE)));
  const back = new URL(consent.headers.get("Location")!);
  const state = back.pathname.split("/").pop()!;
  const authorized = await completeAuthorization(ctx, { miniprogramId: mp.id, state }, back.searchParams.get("auth_code")!, "npm run dev");
  await Promise.allSettled(pending);
  return { id: authorized.id, appId: authorized.authorizerAppId! };
}

import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { contentVersions } from "../../src/content/schema";
import { database } from "../../src/platform/database";
import { admin, createTestTenant, memberWith, seedContent, type TestTenant } from "../helpers/content";

/** What the console's editor needs of the admin API: a taken slug named at its field with a free one, and autosaves of drafts. */

type FieldError = { field: string; message: string; suggestion?: string };
type Envelope<T> = { success: boolean; data: T; error?: { code: string; message: string; fields?: FieldError[] } };
type ContentAnswer = { id: number; slug: string; version: number; status: string; bodyMarkdown: string; title: string };

async function send<T = ContentAnswer>(method: string, path: string, session: string, body?: unknown) {
  const res = await admin(method, path, session, body);
  return { status: res.status, body: await res.json<Envelope<T>>() };
}

let tenant: TestTenant;
let contentsPath: string;
beforeAll(async () => {
  tenant = await createTestTenant();
  contentsPath = `/tenants/${tenant.tenantId}/contents`;
});

const draft = (slug: string, extra: Record<string, unknown> = {}) => ({ siteId: tenant.siteId, title: slug, slug, language: "en", ...extra });

describe("a taken slug", () => {
  it("is a 409 naming the slug field, with the first free numbered slug to take", async () => {
    expect((await send("POST", contentsPath, tenant.session, draft("harbour"))).status).toBe(201);
    const clash = await send("POST", contentsPath, tenant.session, draft("harbour"));
    expect(clash.status).toBe(409);
    expect(clash.body.error).toEqual({
      code: "conflict",
      message: "The slug harbour is already taken in English (en): harbour-2 is free",
      fields: [{ field: "body.slug", message: "The slug harbour is already taken in English (en): harbour-2 is free", suggestion: "harbour-2" }],
    });
    // The suggestion taken; the next clash, even on a numbered slug, suggests past every taken number.
    expect((await send("POST", contentsPath, tenant.session, draft("harbour-2"))).status).toBe(201);
    const again = await send("POST", contentsPath, tenant.session, draft("harbour-2"));
    expect(again.body.error!.fields![0]!.suggestion).toBe("harbour-3");
    // A longer number is part of the name, as a year is.
    expect((await send("POST", contentsPath, tenant.session, draft("fair-2026"))).status).toBe(201);
    const year = await send("POST", contentsPath, tenant.session, draft("fair-2026"));
    expect(year.body.error!.fields![0]!.suggestion).toBe("fair-2026-2");
  });

  it("is free in another language, and a save that renames into a taken slug gets the same answer", async () => {
    expect((await send("POST", contentsPath, tenant.session, draft("quay", { language: "de" }))).status).toBe(201);
    expect((await send("POST", contentsPath, tenant.session, draft("quay"))).status).toBe(201);
    const other = await send("POST", contentsPath, tenant.session, draft("pier"));
    const renamed = await send("PATCH", `${contentsPath}/${other.body.data.id}`, tenant.session, { slug: "quay" });
    expect(renamed.status).toBe(409);
    expect(renamed.body.error!.fields).toEqual([expect.objectContaining({ field: "body.slug", suggestion: "quay-2" })]);
    // Moving to a language where the slug is taken names the language: the slug itself was not sent.
    const moved = await send("PATCH", `${contentsPath}/${other.body.data.id}`, tenant.session, { slug: "quay", language: "de" });
    expect(moved.body.error!.fields![0]!.field).toBe("body.slug");
    const languageOnly = await send<ContentAnswer>("POST", contentsPath, tenant.session, draft("quay-de-only", { language: "en" }));
    await send("POST", contentsPath, tenant.session, draft("quay-de-only", { language: "de" }));
    const relanguaged = await send("PATCH", `${contentsPath}/${languageOnly.body.data.id}`, tenant.session, { language: "de" });
    expect(relanguaged.status).toBe(409);
    expect(relanguaged.body.error!.fields![0]).toMatchObject({ field: "body.language", suggestion: "quay-de-only-2" });
  });

  it("suggests only slugs that fit the 80 characters a slug may have", async () => {
    const long = `a${"-b".repeat(39)}c`.slice(0, 80);
    expect((await send("POST", contentsPath, tenant.session, draft(long))).status).toBe(201);
    const clash = await send("POST", contentsPath, tenant.session, draft(long));
    const suggestion = clash.body.error!.fields![0]!.suggestion!;
    expect(suggestion.length).toBeLessThanOrEqual(80);
    expect((await send("POST", contentsPath, tenant.session, draft(suggestion))).status).toBe(201);
  });
});

describe("an autosave", () => {
  const versionsOf = (id: number) =>
    database(env)
      .select({ version: contentVersions.version, bodyMarkdown: contentVersions.bodyMarkdown, savedBy: contentVersions.savedBy })
      .from(contentVersions)
      .where(and(eq(contentVersions.contentId, id)));

  it("keeps writing into the member's own latest version of a draft, and adds one after another member's save", async () => {
    const created = await send("POST", contentsPath, tenant.session, draft("autosaved"));
    const id = created.body.data.id;
    for (const text of ["First words", "First words and more"]) {
      const saved = await send("PUT", `${contentsPath}/${id}/autosave`, tenant.session, { bodyMarkdown: text });
      expect(saved.status).toBe(200);
      expect(saved.body.data).toMatchObject({ version: 1, bodyMarkdown: text, status: "draft" });
    }
    expect(await versionsOf(id)).toEqual([{ version: 1, bodyMarkdown: "First words and more", savedBy: tenant.ownerId }]);
    // Another editor's autosave does not write into the owner's version: it starts its own.
    const editor = await memberWith(tenant, "editor");
    const theirs = await send("PUT", `${contentsPath}/${id}/autosave`, editor.session, { bodyMarkdown: "Edited by another" });
    expect(theirs.body.data.version).toBe(2);
    expect((await versionsOf(id)).map((v) => v.version)).toEqual([1, 2]);
  });

  it("is refused for a published or scheduled content, whose text stays as it was", async () => {
    for (const publishAt of [undefined, "2099-01-01T00:00:00Z"]) {
      const id = await seedContent(tenant, { bodyMarkdown: "Live text", publishAt });
      const refused = await send("PUT", `${contentsPath}/${id}/autosave`, tenant.session, { bodyMarkdown: "Half-typed" });
      expect(refused.status).toBe(409);
      expect(refused.body.error!.message).toMatch(/^Only a draft is saved automatically: this content is (published|scheduled)/);
      expect((await send("GET", `${contentsPath}/${id}`, tenant.session)).body.data.bodyMarkdown).toBe("Live text");
    }
  });

  it("is refused to a viewer, to an author on someone else's draft, for another tenant's content, and over the body's bound", async () => {
    const created = await send("POST", contentsPath, tenant.session, draft("guarded"));
    const path = `${contentsPath}/${created.body.data.id}/autosave`;
    expect((await send("PUT", path, (await memberWith(tenant, "viewer")).session, { bodyMarkdown: "x" })).status).toBe(403);
    expect((await send("PUT", path, (await memberWith(tenant, "author")).session, { bodyMarkdown: "x" })).status).toBe(403);
    const other = await createTestTenant();
    const foreign = await send("PUT", `/tenants/${other.tenantId}/contents/${created.body.data.id}/autosave`, other.session, { bodyMarkdown: "x" });
    expect(foreign.status).toBe(404);
    const big = await send("PUT", path, tenant.session, { bodyMarkdown: "x".repeat(200_001) });
    expect(big.status).toBe(400);
    expect((await send("GET", `${contentsPath}/${created.body.data.id}`, tenant.session)).body.data.bodyMarkdown).toBe("");
  });
});

describe("free tags as an editor types them", () => {
  it("are trimmed, each kept once whatever its case or dashes, and spelt as the site's other contents spell them", async () => {
    await seedContent(tenant, { title: "Quay works", tags: ["waterfront"] });
    const created = await send<ContentAnswer & { tags: string[] }>(
      "POST",
      contentsPath,
      tenant.session,
      draft("tagged", { tags: [" Waterfront", "Night   Life ", "festival", "Festival", "festival ", "night-life", ""] }),
    );
    expect(created.status).toBe(201);
    expect(created.body.data.tags).toEqual(["waterfront", "Night Life", "festival"]);
    // A dash for a space is the same tag, at the same address (/tag/Night-Life).
    const edited = await send<ContentAnswer & { tags: string[] }>("PATCH", `${contentsPath}/${created.body.data.id}`, tenant.session, {
      tags: ["NIGHT-LIFE", "Ferries", "ferries"],
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data.tags).toEqual(["Night Life", "Ferries"]);
    // Beyond ASCII too, which SQLite's lower() leaves as it is.
    await seedContent(tenant, { title: "Library hours", tags: ["Öffnungszeiten"] });
    const umlaut = await send<ContentAnswer & { tags: string[] }>(
      "POST",
      contentsPath,
      tenant.session,
      draft("umlaut", { tags: ["öffnungszeiten", "ÖFFNUNGSZEITEN"] }),
    );
    expect(umlaut.body.data.tags).toEqual(["Öffnungszeiten"]);
  });

  it("are refused past their bounds, by count and by length, naming the field", async () => {
    for (const tags of [Array.from({ length: 31 }, (_, i) => `tag${i}`), ["x".repeat(61)], [42]]) {
      const refused = await send("POST", contentsPath, tenant.session, draft(`bounded-${tags.length}-${typeof tags[0]}`, { tags }));
      expect(refused.status).toBe(400);
      expect(refused.body.error!.fields!.map((f) => f.field)[0]).toMatch(/^body\.tags/);
    }
  });
});

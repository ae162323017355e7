import { createCategory } from "../src/content/admin/categories";
import { createContent, setPublication } from "../src/content/admin/contents";
import { createSite, DEFAULT_MAX_SITES_PER_TENANT } from "../src/content/admin/sites";
import { createTenant } from "../src/content/admin/tenants";
import { DEFAULT_TEXT_BYTES_PER_TENANT } from "../src/content/admin/text-limits";
import { putContentTag } from "../src/content/admin/tags";
import { createAd } from "../src/content/admin/ads";
import { memberScope } from "../src/content/tenancy/scope";
import { issueTenantKey } from "../src/content/tenancy/tenant-keys";
import { tenantMembers } from "../src/content/schema";
import { users } from "../src/platform/auth/tables";
import type { Database } from "../src/platform/database";
import { localCasdoorId } from "../scripts/lib/keys";

interface DemoStory {
  slug: string;
  title: string;
  intro: string;
  body: string;
  category: string;
  tags: string[];
  daysAgo: number;
  /** Its German version, with tags of its own: a German page lists German words. */
  german?: { slug: string; title: string; intro: string; body: string; tags: string[] };
}

/** A small city magazine: what a tenant's site looks like with content in it, in English and German. */
const STORIES: DemoStory[] = [
  {
    slug: "harbour-reopens",
    title: "The old harbour reopens after two years of works",
    intro: "New quays, a ferry stop and a market hall: the waterfront is open again.",
    body: "After two years behind fences, the **old harbour** is open again.\n\n- a ferry stop with boats every 20 minutes\n- a covered market hall, open Tuesday to Sunday\n- 400 m of new quay for walking and cycling\n\nThe city expects the market to host 60 stalls by spring.",
    category: "city",
    tags: ["waterfront", "transport"],
    daysAgo: 1,
    german: {
      slug: "hafen-wieder-offen",
      tags: ["hafen", "verkehr"],
      title: "Der alte Hafen ist nach zwei Jahren Bauzeit wieder offen",
      intro: "Neue Kais, ein Fähranleger und eine Markthalle: Das Ufer ist wieder zugänglich.",
      body: "Nach zwei Jahren hinter Bauzäunen ist der **alte Hafen** wieder offen.\n\n- ein Fähranleger mit Booten alle 20 Minuten\n- eine überdachte Markthalle, dienstags bis sonntags\n- 400 m neuer Kai zum Spazieren und Radfahren",
    },
  },
  {
    slug: "night-buses",
    title: "Night buses run every 15 minutes from December",
    intro: "Four lines, more frequent on Friday and Saturday nights.",
    body: "From 1 December the N1 to N4 night lines run **every 15 minutes** on Friday and Saturday nights, and every 30 minutes during the week.\n\nTickets are the same as by day.",
    category: "city",
    tags: ["transport"],
    daysAgo: 3,
    german: {
      slug: "nachtbusse",
      tags: ["verkehr"],
      title: "Nachtbusse fahren ab Dezember alle 15 Minuten",
      intro: "Vier Linien, am Wochenende dichter getaktet.",
      body: "Ab 1. Dezember fahren die Nachtlinien N1 bis N4 freitags und samstags **alle 15 Minuten**, unter der Woche alle 30 Minuten.",
    },
  },
  {
    slug: "library-late-opening",
    title: "The central library stays open until 10 pm",
    intro: "A trial for the winter: longer hours, the reading room and the café included.",
    body: "Until March, the central library opens **until 22:00** on weekdays. The reading room and the ground-floor café follow the same hours.",
    category: "culture",
    tags: ["library"],
    daysAgo: 4,
  },
  {
    slug: "jazz-week",
    title: "Jazz week: twelve concerts in nine venues",
    intro: "From cellar clubs to the concert hall, the programme is out.",
    body: "The festival opens on Friday with a free concert on the market square. Tickets for the hall concerts go on sale on Monday at 10:00.\n\n> Most club concerts are free before 21:00.",
    category: "culture",
    tags: ["music", "festival"],
    daysAgo: 6,
    german: {
      slug: "jazzwoche",
      tags: ["musik", "festival"],
      title: "Jazzwoche: zwölf Konzerte an neun Orten",
      intro: "Vom Kellerclub bis zum Konzertsaal: Das Programm steht.",
      body: "Das Festival beginnt am Freitag mit einem Gratiskonzert auf dem Marktplatz. Karten für die Saalkonzerte gibt es ab Montag, 10 Uhr.",
    },
  },
  {
    slug: "derby-preview",
    title: "Derby preview: both sides unbeaten since September",
    intro: "Sunday's match decides who goes into the winter break on top.",
    body: "Both clubs have gone **eleven matches** without defeat. Kick-off is at 15:30; the stadium is sold out, and the match is shown on the screen at the harbour market.",
    category: "football",
    tags: ["derby"],
    daysAgo: 2,
    german: {
      slug: "derby-vorschau",
      tags: ["derby"],
      title: "Derby-Vorschau: Beide Teams seit September ungeschlagen",
      intro: "Das Spiel am Sonntag entscheidet, wer als Tabellenführer in die Winterpause geht.",
      body: "Beide Vereine sind seit **elf Spielen** ungeschlagen. Anpfiff ist um 15:30 Uhr; das Stadion ist ausverkauft.",
    },
  },
  {
    slug: "city-marathon",
    title: "City marathon: registration opens with 12,000 places",
    intro: "The course now finishes on the new harbour quay.",
    body: "Registration for the spring marathon opens on 1 December. The course changes in its last three kilometres and now finishes on the **harbour quay**.",
    category: "sport",
    tags: ["running"],
    daysAgo: 8,
  },
  {
    slug: "winter-market",
    title: "The winter market returns to the castle courtyard",
    intro: "Sixty stalls, an ice rink, and shorter queues with timed entry on weekends.",
    body: "The winter market opens on the last Friday of November. On Saturdays and Sundays, entry is by **free timed ticket** to keep the courtyard from overcrowding.",
    category: "city",
    tags: ["market", "winter"],
    daysAgo: 10,
  },
  {
    slug: "museum-night",
    title: "Museum night: 30 houses open until 2 am",
    intro: "One ticket, shuttle buses between the museums, and a few rooms rarely shown.",
    body: "One ticket (EUR 18) opens all thirty museums and the shuttle buses. Several houses show rooms that are usually closed, among them the **observatory dome** of the science museum.",
    category: "culture",
    tags: ["museums"],
    daysAgo: 12,
  },
];

/** The demo's writers, whose names the site shows as bylines (local users: they have no identity provider account). */
const WRITERS = [
  { email: "mara.lind@demo.localhost", name: "Mara Lind" },
  { email: "jonas.weber@demo.localhost", name: "Jonas Weber" },
];

/** The page the demo menu's "About" opens: a content like the others, the oldest, so lists show it last. */
const about = (siteName: string) => ({
  slug: "about",
  title: `About ${siteName}`,
  intro: "Who we are, what we cover, and how to reach the newsroom.",
  bodyMarkdown: `${siteName} is an independent magazine about the city: its streets, its culture and its sport.\n\n## What we cover\n\n- **City**: transport, building works, markets and the waterfront\n- **Culture**: concerts, museums, libraries and festivals\n- **Sport**: the clubs, the derby and the marathon\n\n## The newsroom\n\nTwo writers and many readers who send us tips. Write to newsroom@example.com; we read every message.`,
});

export interface DemoTenant {
  tenantId: number;
  siteId: number;
  siteSlug: string;
  token: string;
}

/**
 * A tenant with one site, for `npm run dev` and `tenants:create`; with `demo`, the site is filled:
 * a category tree, the stories above in English and German by two writers, an About page, a main and
 * a footer menu in each language, a posts tag and an ad. Returns a tenant key with full scopes (shown only now).
 */
export async function createDemoTenant(db: Database, ownerId: number, options: { name: string; slug: string; demo: boolean }): Promise<DemoTenant> {
  const tenant = await createTenant(db, ownerId, { name: options.name, slug: options.slug });
  const scope = memberScope(tenant.id);
  const site = await createSite(
    db,
    scope,
    // The demo is a German city's paper in two languages; another tenant starts with one language, its settings its own to make.
    options.demo
      ? {
          name: options.name,
          slug: options.slug,
          defaultLanguage: "en",
          languages: ["en", "de"],
          timezone: "Europe/Berlin",
          seoDescription: `${options.name}: news from the city`,
          seoDescriptions: { de: `${options.name}: Nachrichten aus der Stadt` },
        }
      : { name: options.name, slug: options.slug, defaultLanguage: "en", languages: ["en"] },
    DEFAULT_MAX_SITES_PER_TENANT,
  );
  if (options.demo) await fillDemoSite(db, scope.tenantId, site.id, site.name, ownerId);
  const { token } = await issueTenantKey(db, tenant.id, ownerId, { name: options.demo ? "demo" : "tenants:create", siteIds: null, scopes: [] });
  return { tenantId: tenant.id, siteId: site.id, siteSlug: site.slug, token };
}

async function fillDemoSite(db: Database, tenantId: number, siteId: number, siteName: string, ownerId: number) {
  // The owner writes the demo, as the audit log says.
  const scope = { ...memberScope(tenantId), role: "owner" as const, userId: ownerId };
  const category = async (name: string, german: string, slug: string, position: number, parentId?: number) =>
    (await createCategory(db, scope, { siteId, name, names: { de: german }, slug, position, parentId: parentId ?? null })).id;
  const ids: Record<string, number> = {};
  ids.city = await category("City", "Stadt", "city", 0);
  ids.culture = await category("Culture", "Kultur", "culture", 1);
  ids.sport = await category("Sport", "Sport", "sport", 2);
  ids.football = await category("Football", "Fußball", "football", 0, ids.sport);

  const writers: number[] = [];
  for (const writer of WRITERS) writers.push(await demoWriter(db, tenantId, writer));

  const day = 86_400_000;
  for (const [index, story] of STORIES.entries()) {
    const writerId = writers[index % writers.length]!;
    const publishAt = new Date(Date.now() - story.daysAgo * day).toISOString();
    const original = await createContent(
      db,
      scope,
      writerId,
      {
        siteId,
        slug: story.slug,
        title: story.title,
        intro: story.intro,
        bodyMarkdown: story.body,
        language: "en",
        categoryIds: [ids[story.category]!],
        tags: story.tags,
      },
      DEFAULT_TEXT_BYTES_PER_TENANT,
    );
    await setPublication(db, scope, original.id, ownerId, { publishAt });
    if (!story.german) continue;
    const german = await createContent(
      db,
      scope,
      writerId,
      {
        siteId,
        slug: story.german.slug,
        title: story.german.title,
        intro: story.german.intro,
        bodyMarkdown: story.german.body,
        language: "de",
        translationOf: original.id,
        categoryIds: [ids[story.category]!],
        tags: story.german.tags,
      },
      DEFAULT_TEXT_BYTES_PER_TENANT,
    );
    await setPublication(db, scope, german.id, ownerId, { publishAt });
  }
  const aboutPage = await createContent(db, scope, ownerId, { siteId, ...about(siteName), language: "en" }, DEFAULT_TEXT_BYTES_PER_TENANT);
  await setPublication(db, scope, aboutPage.id, ownerId, { publishAt: new Date(Date.now() - 60 * day).toISOString() });
  await putContentTag(db, scope, {
    siteId,
    type: "menu",
    name: "main",
    definition: {
      items: [
        { label: "City", link: { category: ids.city } },
        { label: "Culture", link: { category: ids.culture } },
        { label: "Sport", link: { category: ids.sport }, children: [{ label: "Football", link: { category: ids.football } }] },
        { label: "About", link: { content: aboutPage.id } },
      ],
    },
  });
  await putContentTag(db, scope, {
    siteId,
    type: "menu",
    name: "footer",
    definition: {
      items: [
        { label: "About us", link: { content: aboutPage.id } },
        { label: "Search", link: { url: "/search" } },
        { label: "Transport", link: { tag: "transport" } },
      ],
    },
  });
  // German pages' `menus.main`: the same categories, their German lists.
  await putContentTag(db, scope, {
    siteId,
    type: "menu",
    name: "main.de",
    definition: {
      items: [
        { label: "Stadt", link: { category: ids.city } },
        { label: "Kultur", link: { category: ids.culture } },
        { label: "Sport", link: { category: ids.sport }, children: [{ label: "Fußball", link: { category: ids.football } }] },
      ],
    },
  });
  // German pages' `menus.footer`: the German search and tag pages (the About page has no German version).
  await putContentTag(db, scope, {
    siteId,
    type: "menu",
    name: "footer.de",
    definition: {
      items: [
        { label: "Suche", link: { url: "/de/search" } },
        { label: "Verkehr", link: { tag: "verkehr" } },
      ],
    },
  });
  await putContentTag(db, scope, {
    siteId,
    type: "posts",
    name: "latest-culture",
    definition: { categories: [ids.culture], order: "newest", limit: 5 },
  });
  // One ad for each language's pages.
  for (const [language, html] of [
    ["en", '<a href="https://example.com/winter-market" target="_blank" rel="noopener">Winter market: timed tickets for the weekend</a>'],
    [
      "de",
      '<a href="https://example.com/winter-market?lang=de" target="_blank" rel="noopener">Wintermarkt: Tickets mit Zeitfenster fürs Wochenende</a>',
    ],
  ] as const)
    await createAd(db, scope, {
      siteId,
      kind: "html",
      slot: "sidebar",
      html,
      startsAt: new Date(Date.now() - 30 * 86_400_000).toISOString(),
      weight: 1,
      language,
      name: language === "de" ? "Winter market (German)" : "Winter market",
    });
}

/** A demo writer (made once, whatever the number of demo tenants) and an author of the tenant. */
async function demoWriter(db: Database, tenantId: number, writer: { email: string; name: string }): Promise<number> {
  const [user] = await db
    .insert(users)
    .values({ casdoorId: localCasdoorId(writer.email), email: writer.email, username: writer.email.split("@")[0]!, fullName: writer.name })
    .onConflictDoUpdate({ target: users.casdoorId, set: { fullName: writer.name } })
    .returning({ id: users.id });
  await db.insert(tenantMembers).values({ tenantId, userId: user!.id, role: "author" });
  return user!.id;
}

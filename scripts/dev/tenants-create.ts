import { slugFrom } from "../../src/content/slugs";
import { database } from "../../src/platform/database";
import { createDemoTenant } from "../../seed/content-demo";
import { findOrCreateLocalUser } from "../lib/keys";
import { installTheme } from "../lib/themes";
import { ensureDevVars, fail, step, withLocalBindings } from "../lib/local";
import { commandLine } from "./lib/args";

const USAGE = "usage: npm run -s tenants:create -- --name NAME [--slug SLUG] [--email E] [--demo]";
const { values } = commandLine(USAGE, {
  options: {
    name: { type: "string" },
    slug: { type: "string" },
    email: { type: "string", default: "dev@localhost" },
    demo: { type: "boolean", default: false },
  },
});
if (!values.name) fail(USAGE);
const slug = values.slug ?? slugFrom(values.name);
if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug)) fail(`cannot make a slug of "${values.name}": give --slug`);

ensureDevVars();
const created = await withLocalBindings(async (env) => {
  const db = database(env);
  const owner = await findOrCreateLocalUser(db, values.email);
  step(`creating tenant "${values.name}" (${slug}) owned by ${values.email}${values.demo ? ", with the demo content" : ""}`);
  const tenant = await createDemoTenant(db, owner.id, { name: values.name!, slug, demo: values.demo });
  await installTheme(env, tenant.siteId, "themes/default");
  return tenant;
});
step(`created tenant ${created.tenantId} with site ${created.siteId} (${created.siteSlug}) in the default theme; the key is shown only now`);
step(`its owner signs in to the console with: npm run -s users:token -- --email ${values.email} (docs/console.md)`);
console.log(JSON.stringify(created));

import { createApp } from "../../src/pickup/apps";
import { database } from "../../src/platform/database";
import { findOrCreateLocalUser } from "../lib/keys";
import { ensureDevVars, fail, step, withLocalBindings } from "../lib/local";
import { commandLine } from "./lib/args";

const USAGE = "usage: npm run apps:create -- --name NAME [--email E] [--hot-api-key KEY]";
const { values } = commandLine(USAGE, {
  options: { name: { type: "string" }, email: { type: "string", default: "dev@localhost" }, "hot-api-key": { type: "string", default: "sandbox" } },
});
if (!values.name) fail(USAGE);

ensureDevVars();
const issued = await withLocalBindings(async (env) => {
  const db = database(env);
  const user = await findOrCreateLocalUser(db, values.email);
  return createApp(db, env.KEY_ENCRYPTION_KEY, user.id, { name: values.name!, hot_api_key: values["hot-api-key"] });
});
step(`created app ${issued.app.id} "${issued.app.name}" for ${values.email}; the token and secret are shown only now`);
console.log(JSON.stringify({ appToken: issued.appToken, webhookSecret: issued.webhookSecret }));

import { eq } from "drizzle-orm";
import { acceptInvitations } from "../../src/content/service";
import { issueAccessToken } from "../../src/platform/auth/jwt";
import { users } from "../../src/platform/auth/tables";
import { database } from "../../src/platform/database";
import { localCasdoorId } from "../lib/keys";
import { ensureDevVars, fail, step, withLocalBindings } from "../lib/local";
import { commandLine } from "./lib/args";

const USAGE = "usage: npm run users:token -- --email you@example.com";
const { values } = commandLine(USAGE, { options: { email: { type: "string" } } });
if (!values.email) fail(USAGE);

ensureDevVars();
const token = await withLocalBindings(async (env) => {
  const [user] = await database(env)
    .select()
    .from(users)
    .where(eq(users.casdoorId, localCasdoorId(values.email!)))
    .limit(1);
  if (!user) fail(`no local user ${values.email}: create one with npm run users:create -- --email ${values.email}`);
  if (!user.isActive) fail(`user ${values.email} is deactivated`);
  // A local user's sign-in: the operator who made them vouches for the address, as a provider's verification does.
  const joined = await acceptInvitations(database(env), user);
  if (joined.length) step(`${values.email} accepted invitations to ${joined.length} tenant(s)`);
  return issueAccessToken(env, user.casdoorId);
});
step("a 24-hour access token, signed with the JWT_SECRET of .dev.vars (use it as Authorization: Bearer …)");
console.log(token);

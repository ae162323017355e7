import { z } from "zod";
import { database } from "../../src/platform/database";
import { findOrCreateLocalUser } from "../lib/keys";
import { ensureDevVars, fail, step, withLocalBindings } from "../lib/local";
import { commandLine } from "./lib/args";

const USAGE = "usage: npm run users:create -- --email you@example.com [--admin]";
const { values } = commandLine(USAGE, { options: { email: { type: "string" }, admin: { type: "boolean", default: false } } });
if (!values.email || !z.email().safeParse(values.email).success) {
  fail(USAGE);
}

ensureDevVars();
const user = await withLocalBindings((env) => findOrCreateLocalUser(database(env), values.email!, values.admin ? "admin" : "user"));
step(`user ${user.id} <${user.email}> is ${user.role === "admin" ? "an admin" : "a user"} in the local D1`);
console.log(JSON.stringify({ id: user.id, email: user.email, role: user.role, casdoor_id: user.casdoorId }));

import { PLANS, type Plan } from "../../src/platform/auth/tables";
import { database } from "../../src/platform/database";
import { createLocalKey } from "../lib/keys";
import { ensureDevVars, fail, step, withLocalBindings } from "../lib/local";
import { commandLine } from "./lib/args";

const USAGE = "usage: npm run keys:create -- --name NAME [--plan free|basic|enterprise|internal] [--email E] [--scopes a:b,c:*]";
const { values } = commandLine(USAGE, {
  options: {
    name: { type: "string" },
    plan: { type: "string" },
    email: { type: "string", default: "dev@localhost" },
    scopes: { type: "string" },
  },
});

if (!values.name) fail(USAGE);
if (values.plan && !PLANS.includes(values.plan as Plan)) fail(`--plan must be one of ${PLANS.join(", ")}`);

ensureDevVars();
step(`creating key "${values.name}" for ${values.email} in the local D1`);
const issued = await withLocalBindings((env) =>
  createLocalKey(database(env), env.KEY_ENCRYPTION_KEY, {
    email: values.email,
    name: values.name!,
    plan: values.plan as Plan | undefined,
    scopes: values.scopes?.split(",").filter(Boolean),
  }),
);
step(`created key ${issued.key.id} (${issued.key.maskedToken}); the token and secret are shown only now`);
console.log(JSON.stringify({ token: issued.token, secret: issued.secret }));

/**
 * Validates the service's OpenAPI document against the official OpenAPI 3.1 JSON schema with an
 * independent validator (@seriousme/openapi-schema-validator), as strict client generators read it.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { createApp } from "../../src/app";
import { FALLBACK_SURFACES, GROUPS } from "../../src/groups";
import { fail, step } from "../lib/local";

const app = createApp(GROUPS, FALLBACK_SURFACES);
const document = app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "Edge gateway", version: "check" } });
const operations = Object.values(document.paths ?? {}).reduce((n, item) => n + Object.keys(item ?? {}).length, 0);
step(`openapi: validating ${Object.keys(document.paths ?? {}).length} paths, ${operations} operations`);

const validator = new Validator();
// A plain JSON copy: the validator takes a JSON object, not the typed document.
const result = await validator.validate(JSON.parse(JSON.stringify(document)) as Record<string, unknown>);
if (!result.valid) {
  const errors = Array.isArray(result.errors) ? result.errors : [result.errors];
  for (const error of errors.slice(0, 20)) process.stderr.write(`  ${JSON.stringify(error)}\n`);
  fail(`openapi: the document is not valid OpenAPI ${validator.version ?? "3.1"} (${errors.length} errors)`);
}
step(`openapi: valid OpenAPI ${validator.version}; ${operations} operations`);

import type { TaxRate } from "../../src/tax/schema";
import { createTestKey, type TestKey } from "../helpers/credentials";
import { envelope, getWithSecret } from "../helpers/requests";

export const TAX = "/std/api/bigdata/taxrate";

let shared: Promise<TestKey> | undefined;
export const taxKey = () => (shared ??= createTestKey({ scopes: ["taxrate:read"] }));

export async function getTax<T = TaxRate[]>(path: string) {
  const res = await getWithSecret(`${TAX}${path}`, await taxKey());
  return { res, body: await envelope<T>(res.clone()) };
}

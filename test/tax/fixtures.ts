import type { TaxRate } from "../../src/tax/schema";
import { createTestKey } from "../helpers/credentials";
import { oncePerStorage } from "../helpers/fresh-storage";
import { envelope, getWithSecret } from "../helpers/requests";

export const TAX = "/std/api/bigdata/taxrate";

export const taxKey = oncePerStorage(() => createTestKey({ scopes: ["taxrate:read"] }));

export async function getTax<T = TaxRate[]>(path: string) {
  const res = await getWithSecret(`${TAX}${path}`, await taxKey());
  return { res, body: await envelope<T>(res.clone()) };
}

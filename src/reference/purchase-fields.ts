import { database } from "../platform/database";
import type { Bindings } from "../platform/env";
import type { z } from "@hono/zod-openapi";
import type { purchaseFieldSchema } from "./schema";
import { platformByCode } from "./service";

export type PurchaseField = z.infer<typeof purchaseFieldSchema>;

const orderDate: PurchaseField = { name: "purchase_date", label: "Purchase date", type: "date", required: true };
const amount: PurchaseField = { name: "order_total", label: "Order total", type: "number", required: true };
const currency: PurchaseField = { name: "currency", label: "Currency (ISO 4217)", type: "string", required: true, pattern: "^[A-Z]{3}$" };
/** Every platform's record ends with when, how much and in which currency. */
const withPurchase = (...own: PurchaseField[]): PurchaseField[] => [...own, orderDate, amount, currency];

const generic = withPurchase({ name: "order_id", label: "Order id", type: "string", required: true });

/** The fields a platform's purchase record needs: what a shipper must capture to declare the goods. */
const FIELDS: Record<string, PurchaseField[]> = {
  amazon: withPurchase(
    { name: "order_id", label: "Amazon order id", type: "string", required: true, pattern: "^\\d{3}-\\d{7}-\\d{7}$" },
    {
      name: "marketplace_id",
      label: "Marketplace",
      type: "enum",
      required: true,
      options: ["US", "CA", "MX", "BR", "UK", "DE", "FR", "IT", "ES", "NL", "SE", "PL", "JP", "AU", "IN", "SG", "AE", "SA"],
    },
    { name: "asin", label: "ASIN", type: "string", required: true, pattern: "^[A-Z0-9]{10}$" },
    { name: "fulfillment_channel", label: "Fulfilment", type: "enum", required: false, options: ["AFN", "MFN"] },
  ),
  ebay: withPurchase(
    { name: "order_id", label: "eBay order number", type: "string", required: true, pattern: "^\\d{2}-\\d{5}-\\d{5}$" },
    { name: "item_id", label: "Item number", type: "string", required: true, pattern: "^\\d{12}$" },
    { name: "buyer_username", label: "Buyer", type: "string", required: false },
  ),
  shopify: withPurchase(
    { name: "shop_domain", label: "Shop domain", type: "string", required: true, pattern: "^[a-z0-9-]+\\.myshopify\\.com$" },
    { name: "order_number", label: "Order number", type: "string", required: true, pattern: "^#?\\d+$" },
  ),
  aliexpress: withPurchase(
    { name: "order_id", label: "AliExpress order id", type: "string", required: true, pattern: "^\\d{16}$" },
    { name: "store_id", label: "Store id", type: "string", required: false },
  ),
  mercadolibre: withPurchase(
    { name: "order_id", label: "Mercado Libre order id", type: "string", required: true, pattern: "^\\d{10,16}$" },
    { name: "site_id", label: "Site", type: "enum", required: true, options: ["MLA", "MLB", "MLC", "MCO", "MLM", "MPE", "MLU"] },
  ),
};

/** Null for a platform the service does not know. */
export async function purchaseFieldsOf(env: Bindings, platform: string): Promise<PurchaseField[] | null> {
  if (!(await platformByCode(database(env), platform))) return null;
  return FIELDS[platform] ?? generic;
}

import { WorkerEntrypoint } from "cloudflare:workers";
import type { Bindings } from "../platform/env";
import type { PurchaseField } from "./purchase-fields";

/**
 * The internal service that answers O13, reached from the Worker through a service binding and
 * called with RPC, so that it can move to its own Worker without changing the caller. The entry
 * exports it, so its code loads with the first call rather than with the isolate.
 */
export class PurchaseFieldsService extends WorkerEntrypoint<Bindings> {
  /** Null for a platform the service does not know. */
  async fieldsOf(platform: string): Promise<PurchaseField[] | null> {
    const { purchaseFieldsOf } = await import("./purchase-fields");
    return purchaseFieldsOf(this.env, platform);
  }
}

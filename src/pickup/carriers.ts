import { z } from "zod";
import type { Bindings } from "../platform/env";
import { settingsOf } from "../platform/settings";
import type { PickupTask } from "./schema";
import { pickupSettings } from "./settings";

/** The carrier said no: the task fails with the carrier's reason. */
export class CarrierRejected extends Error {}
/** The carrier could not be reached or did not answer in time: the call is tried again. */
export class CarrierUnavailable extends Error {}

export interface CarrierAdapter {
  createPickupOrder(task: PickupTask, hotApiKey: string): Promise<{ orderId: string }>;
  refreshAuthorization(task: PickupTask, hotApiKey: string): Promise<void>;
  cancel(task: PickupTask, hotApiKey: string): Promise<void>;
}

/**
 * The development carrier. `meta_data.sandbox_outcome` steers it: "accept" (the default),
 * "reject" (with `meta_data.sandbox_reason`) or "timeout".
 */
export const sandboxCarrier: CarrierAdapter = {
  async createPickupOrder(task) {
    const outcome = task.metaData?.sandbox_outcome ?? "accept";
    if (outcome === "reject") {
      const reason = task.metaData?.sandbox_reason;
      throw new CarrierRejected(typeof reason === "string" ? reason : "the sandbox carrier rejected the pickup");
    }
    if (outcome === "timeout") throw new CarrierUnavailable("the sandbox carrier timed out");
    return { orderId: `SBX-${task.id}-${task.requestId}` };
  },
  async refreshAuthorization() {},
  async cancel() {},
};

const CARRIER_TIMEOUT_MS = 15_000;

/** What is read of a carrier's answer; anything else in it is ignored, a reason is cut to 300 characters. */
const carrierAnswer = z.object({
  order_id: z.string().min(1).max(128).optional().catch(undefined),
  message: z
    .string()
    .transform((m) => m.slice(0, 300))
    .optional()
    .catch(undefined),
});

/** A carrier's REST API at `CARRIER_API_URL`, authorised with the app's hot api key. */
export function httpCarrier(baseUrl: string): CarrierAdapter {
  const call = async (method: string, path: string, hotApiKey: string, body?: unknown, headers: Record<string, string> = {}) => {
    let res: Response;
    try {
      res = await fetch(`${baseUrl.replace(/(?<!\/)\/+$/, "")}${path}`, {
        method,
        headers: { Authorization: `Bearer ${hotApiKey}`, "Content-Type": "application/json", Accept: "application/json", ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(CARRIER_TIMEOUT_MS),
      });
    } catch {
      throw new CarrierUnavailable("the carrier did not answer");
    }
    const json = carrierAnswer.parse(await res.json().catch(() => ({})));
    if (res.status >= 500) throw new CarrierUnavailable(`the carrier answered ${res.status}`);
    if (!res.ok) throw new CarrierRejected(json.message ?? `the carrier refused with ${res.status}`);
    return json;
  };
  return {
    async createPickupOrder(task, hotApiKey) {
      const answer = await call(
        "POST",
        "/pickups",
        hotApiKey,
        {
          service_code: task.serviceCode,
          authorize_id: task.authorizeId,
          reference_order_number: task.referenceOrderNumber,
          sender_address: task.senderAddress,
          loading_address: task.loadingAddress,
          consignee_address: task.consigneeAddress,
          loading_time: task.loadingTime,
          delivery_time: task.deliveryTime,
          item_lines: task.itemLines,
        },
        // Retries of one attempt (after our storage failed) share the key; a re-create (P4) moves the task, so gets a new one.
        { "Idempotency-Key": `pickup-${task.id}-${Date.parse(task.updatedAt)}` },
      );
      if (!answer.order_id) throw new CarrierUnavailable("the carrier's answer had no order_id");
      return { orderId: answer.order_id };
    },
    async refreshAuthorization(task, hotApiKey) {
      await call("POST", `/authorizations/${encodeURIComponent(task.authorizeId)}/refresh`, hotApiKey);
    },
    async cancel(task, hotApiKey) {
      if (task.carrierOrderId) await call("DELETE", `/pickups/${encodeURIComponent(task.carrierOrderId)}`, hotApiKey);
    },
  };
}

export function carrierFor(env: Bindings, serviceCode: string): CarrierAdapter | undefined {
  if (serviceCode === "sandbox") return sandboxCarrier;
  const { CARRIER_API_URL } = settingsOf(env, pickupSettings);
  return CARRIER_API_URL ? httpCarrier(CARRIER_API_URL) : undefined;
}

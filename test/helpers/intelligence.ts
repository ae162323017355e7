import { createTestKey, type TestKey } from "./credentials";
import { oncePerStorage } from "./fresh-storage";
import { call, secretHeaders } from "./requests";

export interface AiEnvelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
  timestamp: number;
}

/** One key with scope ai:read, shared by the files of a storage. */
export const aiKey = oncePerStorage(() => createTestKey({ scopes: ["ai:read"] }));

/** POSTs bizContent to a group I endpoint with a key's secret; answers status and envelope. */
export async function callAi<T = Record<string, unknown>>(path: string, bizContent: unknown, key?: TestKey) {
  const response = await call(`/std/ai${path}`, {
    method: "POST",
    headers: { ...secretHeaders(key ?? (await aiKey())), "Content-Type": "application/json" },
    body: JSON.stringify({ bizContent }),
  });
  return { status: response.status, headers: response.headers, body: await response.json<AiEnvelope<T>>() };
}

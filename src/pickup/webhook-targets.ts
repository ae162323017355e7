import type { Bindings } from "../platform/env";
import { ApiError } from "../platform/errors";
import { callerUrlProblem } from "../platform/outbound-url";

/** A webhook target is a URL from a caller: https, public, checked at submit and again at delivery. */
export async function assertPublicWebhookUrl(env: Pick<Bindings, "ENVIRONMENT" | "DOH_RESOLVER_URL">, raw: string): Promise<void> {
  const problem = await callerUrlProblem(env, raw);
  if (problem) throw new ApiError(400, `body.webhook_url: ${problem}`);
}

import type { TenantErrorStatus } from "../platform/openapi";

/** What an error means in group C's answers, where the tenant envelope's generic text says less. */
export const CONTENT_ERROR_TEXTS = {
  403: "The credential lacks the scope or the member the role",
  404: "Not found, or of another tenant",
  409: "Conflict: a slug or a domain taken, or a state that forbids it",
  502: "An upstream (language model, translation provider, DNS resolver) failed or did not answer in time",
} as const satisfies Partial<Record<TenantErrorStatus, string>>;

export const SCOPE_RESOURCES = ["taxrate", "reference", "ai", "tokens", "users", "pickup", "miniprogram", "content", "scheduler"] as const;
export type ScopeResource = (typeof SCOPE_RESOURCES)[number];

/** `<resource>:<action>`, `<resource>:*` or `*`; a key granted no scopes has full access. */
export function scopeAllows(granted: readonly string[], needed: `${ScopeResource}:${string}`): boolean {
  if (granted.length === 0) return true;
  const [resource] = needed.split(":");
  return granted.some((scope) => scope === "*" || scope === needed || scope === `${resource}:*`);
}

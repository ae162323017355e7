/** `<resource>:<action>`, `<resource>:*` or `*`; a key granted no scopes has full access. */
export function scopeAllows(granted: readonly string[], needed: `${string}:${string}`): boolean {
  if (granted.length === 0) return true;
  const [resource] = needed.split(":");
  return granted.some((scope) => scope === "*" || scope === needed || scope === `${resource}:*`);
}

// The resources the groups declare (GroupModule.scopes), gathered as the app is built; a key may be granted only these.
const declared = new Set<string>();

export function declareScopeResources(resources: readonly string[]) {
  for (const resource of resources) declared.add(resource);
}

export const scopeResources = (): string[] => [...declared];

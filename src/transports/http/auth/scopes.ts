/** Scope arithmetic: which required scopes a grant covers, with user-defined hierarchies. */

export type Implies = (granted: string, required: string) => boolean;

/** The required scopes the granted ones do not cover (in the order required). */
export function missingScopes(granted: readonly string[], required: readonly string[], implies: Implies | undefined): string[] {
  const missing: string[] = [];
  for (const scope of required) {
    if (granted.includes(scope)) continue;
    if (implies !== undefined && granted.some((g) => implies(g, scope))) continue;
    if (!missing.includes(scope)) missing.push(scope);
  }
  return missing;
}

/** Splits an OAuth `scope` string (RFC 6749 §3.3: space-delimited). */
export function parseScope(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((s): s is string => typeof s === 'string' && s !== '');
  if (typeof value !== 'string') return [];
  return value.split(' ').filter((s) => s !== '');
}

/** Union in first-seen order, without `offline_access` (refresh tokens are not a resource requirement). */
export function scopeUnion(...lists: readonly (readonly string[] | undefined)[]): string[] {
  const out: string[] = [];
  for (const list of lists) for (const scope of list ?? []) if (scope !== 'offline_access' && !out.includes(scope)) out.push(scope);
  return out;
}

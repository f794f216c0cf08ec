/**
 * `WWW-Authenticate` (RFC 9110 §11.6.1): schemes and their auth-params, read
 * in one pass. Only what the client acts on is kept: the Bearer (or DPoP)
 * challenge's `resource_metadata`, `scope` and `error`.
 */

export interface BearerChallenge {
  resourceMetadata?: string;
  scope?: string;
  error?: string;
}

const MAX_HEADER = 8192;

/** The params of each challenge, by lower-case scheme. Malformed input yields what parsed before it. */
export function parseChallenges(header: string): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  const text = header.slice(0, MAX_HEADER);
  let i = 0;
  let current: Map<string, string> | undefined;
  const skip = (): void => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === ',')) i++;
  };
  const token = (): string => {
    const start = i;
    while (i < text.length && !' \t,="'.includes(text[i]!)) i++;
    return text.slice(start, i);
  };
  while (i < text.length) {
    skip();
    const name = token();
    if (name === '') {
      i++;
      continue;
    }
    let j = i;
    while (j < text.length && (text[j] === ' ' || text[j] === '\t')) j++;
    if (text[j] === '=' && current !== undefined) {
      i = j + 1;
      while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
      let value = '';
      if (text[i] === '"') {
        i++;
        while (i < text.length && text[i] !== '"') {
          if (text[i] === '\\' && i + 1 < text.length) i++;
          value += text[i];
          i++;
        }
        i++;
      } else {
        value = token();
      }
      const key = name.toLowerCase();
      if (!current.has(key)) current.set(key, value);
      continue;
    }
    if (text[j] === '=') {
      // token68 or params before any scheme: skip to the next comma.
      while (i < text.length && text[i] !== ',') i++;
      continue;
    }
    current = new Map();
    if (!out.has(name.toLowerCase())) out.set(name.toLowerCase(), current);
  }
  return out;
}

/** The Bearer challenge (DPoP's when there is no Bearer one). */
export function bearerChallenge(header: string | undefined): BearerChallenge {
  if (header === undefined) return {};
  const all = parseChallenges(header);
  const params = all.get('bearer') ?? all.get('dpop');
  if (params === undefined) return {};
  const out: BearerChallenge = {};
  const resourceMetadata = params.get('resource_metadata');
  if (resourceMetadata !== undefined && resourceMetadata !== '') out.resourceMetadata = resourceMetadata;
  const scope = params.get('scope');
  if (scope !== undefined && scope.trim() !== '') out.scope = scope.trim();
  const error = params.get('error');
  if (error !== undefined && error !== '') out.error = error;
  return out;
}

/** A space-separated scope string as a list without duplicates. */
export function scopeList(scope: string | undefined): string[] {
  if (scope === undefined) return [];
  return [...new Set(scope.split(/[ \t]+/).filter((s) => s !== ''))];
}

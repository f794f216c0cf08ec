/**
 * Unknown keys in an options object or a registration config, refused at construction. In plain
 * JavaScript a misspelt key is silently ignored: `{ scope: [...] }` for `scopes` left a tool open
 * to every caller. Called where an object is built or registered, never per request.
 */

type AllKeys<T> = T extends unknown ? keyof T & string : never;

/**
 * Every key of `T` (of each member of a union), each mapped to `true`: TypeScript refuses the
 * list when `T` gains or loses a key, so the runtime check never drifts from the type.
 */
export type KeyList<T> = { readonly [K in AllKeys<T>]-?: true };

/** The valid keys of `T`, as `refuseUnknownKeys` reads them. */
export function keysOf<T>(list: KeyList<T>): readonly string[] {
  return Object.freeze(Object.keys(list));
}

/** Keys longer than this are compared by their first characters only: the cost stays bounded. */
const MAX_COMPARED = 64;

/**
 * Optimal string alignment distance (Levenshtein plus adjacent transpositions), case-insensitive:
 * `scope` → `scopes` is 1, `tiemoutMs` → `timeoutMs` is 1, `TimeoutMS` → `timeoutMs` is 0.
 */
export function editDistance(a: string, b: string): number {
  const s = a.slice(0, MAX_COMPARED).toLowerCase();
  const t = b.slice(0, MAX_COMPARED).toLowerCase();
  let before: number[] = [];
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[t.length]!;
}

/**
 * The valid key nearest to `key`, when it is near enough to be a slip (at most a third of the
 * longer name, at least one edit), else undefined. Ties go to the first in `known`.
 */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(key, candidate);
    const limit = Math.max(1, Math.floor(Math.max(key.length, candidate.length) / 3));
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** The message for an unknown key: the key, where it was given, and the nearest valid one (or the valid ones). */
export function unknownKeyMessage(key: string, where: string, known: readonly string[]): string {
  const shown = key.length > MAX_COMPARED ? `${key.slice(0, MAX_COMPARED)}…` : key;
  const near = nearestKey(key, known);
  const hint = near === undefined ? `valid options: ${known.map((k) => `\`${k}\``).join(', ')}` : `did you mean \`${near}\`?`;
  return `unknown option \`${shown}\` in ${where} — ${hint}`;
}

/**
 * Throws when `value` (an object, or undefined: nothing to check) has an own enumerable key outside
 * `known`. `where` names the call ("server.tool(\"x\") config"); `error` builds the error thrown
 * (a TypeError by default; registration uses RegistrationError).
 */
export function refuseUnknownKeys(
  value: unknown,
  known: readonly string[],
  where: string,
  error: (message: string) => Error = (message) => new TypeError(message),
): void {
  if (typeof value !== 'object' || value === null) return;
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) throw error(unknownKeyMessage(key, where, known));
  }
}

/**
 * The keys of an options object and of the option groups nested in it (`limits`, `security`, …):
 * each group is checked only when it is given as an object (`cors: true` is not).
 */
export interface KeyShape {
  readonly keys: readonly string[];
  readonly nested?: Readonly<Record<string, KeyShape>>;
}

/** A `KeyShape` from a typed key list and the shapes of its nested groups. */
export function shapeOf<T>(list: KeyList<T>, nested?: { readonly [K in AllKeys<T>]?: KeyShape }): KeyShape {
  return Object.freeze({ keys: keysOf<T>(list), ...(nested === undefined ? {} : { nested: Object.freeze({ ...nested } as Record<string, KeyShape>) }) });
}

/** Every key below `shape`'s own, with its full path (`limits.maxBodyBytes`). */
function keysBelow(shape: KeyShape, prefix: string, into: { key: string; path: string }[] = []): { key: string; path: string }[] {
  for (const [group, inner] of Object.entries(shape.nested ?? {})) {
    for (const key of inner.keys) into.push({ key, path: `${prefix}${group}.${key}` });
    keysBelow(inner, `${prefix}${group}.`, into);
  }
  return into;
}

/**
 * Where `key` (or the key nearest to it) lives below `shape`: the hint for a key given at the wrong
 * level (`maxBodyBytes` → `limits.maxBodyBytes`, `pageSzie` → `results.pageSize`).
 */
function pathBelow(shape: KeyShape, key: string, prefix: string): string | undefined {
  const below = keysBelow(shape, prefix);
  const exact = below.find((entry) => entry.key === key);
  if (exact !== undefined) return exact.path;
  const near = nearestKey(key, below.map((entry) => entry.key));
  return near === undefined ? undefined : below.find((entry) => entry.key === near)!.path;
}

/**
 * `refuseUnknownKeys` at every level of `shape`: the message names the full path
 * (`limits.maxBodyByte`) and the nearest valid one (`limits.maxBodyBytes`), or, for a key
 * that belongs in a group (`maxBodyBytes` at the top), where it goes.
 */
export function refuseUnknownKeysIn(
  value: unknown,
  shape: KeyShape,
  where: string,
  error: (message: string) => Error = (message) => new TypeError(message),
  prefix = '',
): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
  const o = value as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (shape.keys.includes(key)) continue;
    const shown = key.length > MAX_COMPARED ? `${key.slice(0, MAX_COMPARED)}…` : key;
    const near = nearestKey(key, shape.keys);
    const moved = near === undefined ? pathBelow(shape, key, prefix) : undefined;
    const hint =
      near !== undefined
        ? `did you mean \`${prefix}${near}\`?`
        : moved !== undefined
          ? `did you mean \`${moved}\`?`
          : `valid options: ${shape.keys.map((k) => `\`${prefix}${k}\``).join(', ')}`;
    throw error(`unknown option \`${prefix}${shown}\` in ${where} — ${hint}`);
  }
  for (const [group, inner] of Object.entries(shape.nested ?? {})) {
    refuseUnknownKeysIn(o[group], inner, where, error, `${prefix}${group}.`);
  }
}

import { OpenApiError } from './errors.js';

/** `#/a/b~1c` → `['a', 'b/c']` (RFC 6901, percent-decoded first as a URI fragment). */
export function pointerSegments(ref: string, at: string): string[] {
  if (ref === '#') return [];
  if (!ref.startsWith('#/')) throw new OpenApiError(`"$ref": ${JSON.stringify(ref)} is not a local reference`, at);
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(2));
  } catch {
    throw new OpenApiError(`"$ref": ${JSON.stringify(ref)} is not a valid URI fragment`, at);
  }
  return fragment.split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function pointerOf(segments: readonly string[]): string {
  return segments.length === 0 ? '#' : `#/${segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

/** Whether a `$ref` names a place in this document: anything else (a file, another host) is external. */
export const isLocalRef = (ref: string): boolean => ref === '#' || ref.startsWith('#/');

// Resolved references per document: GitHub's description names a few thousand targets tens of thousands of times.
const resolved = new WeakMap<object, Map<string, unknown>>();

/** The value a local `$ref` points to, or an OpenApiError naming the reference and where it was met. */
export function resolvePointer(root: unknown, ref: string, at: string): unknown {
  const memo = typeof root === 'object' && root !== null ? resolved.get(root) : undefined;
  if (memo?.has(ref) === true) return memo.get(ref);
  const value = resolveUncached(root, ref, at);
  if (typeof root === 'object' && root !== null) {
    if (memo === undefined) resolved.set(root, new Map([[ref, value]]));
    else memo.set(ref, value);
  }
  return value;
}

function resolveUncached(root: unknown, ref: string, at: string): unknown {
  if (!isLocalRef(ref)) {
    throw new OpenApiError(
      `"$ref": ${JSON.stringify(ref.slice(0, 200))} points outside the document (a file or another host); external references are refused — bundle the document first (for example with \`npx @redocly/cli bundle\`)`,
      at,
    );
  }
  let current: unknown = root;
  for (const segment of pointerSegments(ref, at)) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) {
      throw new OpenApiError(`"$ref": ${JSON.stringify(ref)} points to nothing in the document`, at);
    }
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

const MAX_HOPS = 32;

/** A Reference Object followed (through chains of them) to what it names; cycles are refused. */
export function follow<T>(root: unknown, value: T, at: string): T {
  let current: unknown = value;
  let where = at;
  for (let hops = 0; hops <= MAX_HOPS; hops++) {
    if (typeof current !== 'object' || current === null) return current as T;
    const ref = (current as { $ref?: unknown }).$ref;
    if (typeof ref !== 'string') return current as T;
    current = resolvePointer(root, ref, where);
    where = ref;
  }
  throw new OpenApiError(`a chain of more than ${MAX_HOPS} "$ref"s (a reference cycle)`, at);
}

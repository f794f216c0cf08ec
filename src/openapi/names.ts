/**
 * Tool names from operations, deterministically: a valid, unique operationId is the name unchanged;
 * otherwise invalid characters become `_`, a name longer than 128 characters is cut and tagged with
 * a hash of the original, and a clash takes `_2`, `_3`, … in document order. Names that needed no
 * change are placed first, so a changed name never takes a valid operationId's name.
 */
import { shortHash } from './schema.js';

export const MAX_TOOL_NAME = 128;
const VALID = /^[A-Za-z0-9_.-]{1,128}$/;

export const isValidToolName = (name: string): boolean => VALID.test(name);

/** The wanted name for an operation: its operationId, else `method_path` (`get_pets_petId`). */
export function wantedName(operationId: string | undefined, method: string, path: string): string {
  if (operationId !== undefined && operationId !== '') return operationId;
  return `${method}_${path.replace(/[{}]/g, '').replace(/^\/+|\/+$/g, '')}`;
}

export function sanitize(name: string): string {
  let out = name.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^_+(?=.)|(?<=.)_+$/g, '');
  if (out === '' || out === '_') out = `op_${shortHash(name)}`;
  if (out.length > MAX_TOOL_NAME) out = `${out.slice(0, MAX_TOOL_NAME - 9)}_${shortHash(name)}`;
  return out;
}

/** Unique valid names for `wanted`, in order. */
export function assignNames(wanted: readonly string[]): string[] {
  const out = new Array<string>(wanted.length);
  const taken = new Set<string>();
  const unique = (base: string): string => {
    if (!taken.has(base)) return base;
    for (let n = 2; ; n++) {
      const suffix = `_${n}`;
      const candidate = `${base.slice(0, MAX_TOOL_NAME - suffix.length)}${suffix}`;
      if (!taken.has(candidate)) return candidate;
    }
  };
  wanted.forEach((name, i) => {
    if (isValidToolName(name) && !taken.has(name)) {
      out[i] = name;
      taken.add(name);
    }
  });
  wanted.forEach((name, i) => {
    if (out[i] !== undefined) return;
    const name2 = unique(sanitize(name));
    out[i] = name2;
    taken.add(name2);
  });
  return out;
}

const ARGUMENT = /^[A-Za-z0-9_.-]{1,64}$/;

/** An argument name clients accept everywhere (`[A-Za-z0-9_.-]{1,64}`): `X-Request-Id` stays, `page[size]` becomes `page_size_`. */
export function argumentName(name: string): string {
  if (ARGUMENT.test(name)) return name;
  const safe = name.replace(/[^A-Za-z0-9_.-]/g, '_');
  return safe.length > 0 && safe.length <= 64 ? safe : `${safe.slice(0, 55)}_${shortHash(name)}`;
}

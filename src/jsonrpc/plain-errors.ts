/** How deep `withPlainErrors` looks for errors; deeper values are left as they are. */
const MAX_ERROR_DEPTH = 32;

/**
 * `value` with every Error in it as `{ name, message }` (never its stack): JSON.stringify
 * writes an Error as `{}`, so `ctx.log('error', new Error('boom'))` would send nothing
 * useful. Only the path to an error is copied; a value without one comes back as is.
 */
export function withPlainErrors(value: unknown): unknown {
  return plain(value, 0, new Set());
}

function plain(value: unknown, depth: number, seen: Set<object>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (depth >= MAX_ERROR_DEPTH || seen.has(value) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  seen.add(value);
  let copy: unknown;
  if (Array.isArray(value)) {
    let items: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const next = plain(item, depth + 1, seen);
      if (next !== item) (items ??= [...(value as unknown[])])[i] = next;
    }
    copy = items;
  } else {
    const record = value as Record<string, unknown>;
    let fields: Record<string, unknown> | undefined;
    for (const key of Object.keys(record)) {
      const item = record[key];
      const next = plain(item, depth + 1, seen);
      if (next !== item) (fields ??= { ...record })[key] = next;
    }
    copy = fields;
  }
  seen.delete(value);
  return copy ?? value;
}

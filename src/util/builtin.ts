/**
 * A Node built-in, where the runtime has one (Node ≥ 20.16, Bun, Deno, Workers with nodejs_compat),
 * else undefined. `process.getBuiltinModule` is synchronous and invisible to bundlers, so the fetch
 * entry can use node:crypto or node:diagnostics_channel where they exist without importing them: a
 * Worker without the nodejs_compat flag loads (a static `import 'node:…'` refuses to) and gets the
 * web-standard fallback instead.
 */
export function nodeBuiltin<T extends object>(id: `node:${string}`): T | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  if (typeof proc?.getBuiltinModule !== 'function') return undefined;
  try {
    const module = proc.getBuiltinModule(id);
    return typeof module === 'object' && module !== null ? (module as T) : undefined;
  } catch {
    // A runtime that has the function but not the module (or forbids it).
    return undefined;
  }
}

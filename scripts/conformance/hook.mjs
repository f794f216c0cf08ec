// ESM resolve hook (runs on the loader thread). Redirects `fs` / `node:fs`
// imports made from inside @modelcontextprotocol/conformance to fs-shim.mjs;
// every other import, including the shim's own `node:fs`, resolves as usual.
const SHIM_URL = new URL('./fs-shim.mjs', import.meta.url).href;
const CONFORMANCE_DIR = '/node_modules/@modelcontextprotocol/conformance/';

export async function resolve(specifier, context, nextResolve) {
  const fromConformance = context.parentURL?.replaceAll('\\', '/').includes(CONFORMANCE_DIR);
  if (fromConformance && (specifier === 'fs' || specifier === 'node:fs')) {
    return { url: SHIM_URL, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

// Bench-only plumbing shared by every server under test: where to listen, which
// HTTP mode to serve, how many tools to register, and a memory probe. Nothing
// here touches the MCP library being measured.

/** Reads `--name value` from argv, then the NAME environment variable. */
export function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  if (i !== -1 && i + 1 < process.argv.length) return process.argv[i + 1];
  const env = process.env[name.toUpperCase()];
  return env === undefined || env === '' ? fallback : env;
}

export const port = Number(arg('port', '3000'));
export const host = '127.0.0.1';
/** HTTP serving mode: 'stateless' (legacy, no session), 'session' (legacy with Mcp-Session-Id), 'modern' (2026-07-28). */
export const mode = arg('mode', 'session');
/** Total number of tools to register (echo + add + filler tools), for the many-tools check. */
export const toolCount = Math.max(2, Number(arg('tools', '2')));
/**
 * What shape the echo and add tools have (`--tool`, env TOOL): 'sync' returns a string; 'async' is an
 * async function returning a CallToolResult; 'tick' is the same after awaiting a real macrotask
 * (setImmediate), like a tool that does I/O. The references do the same work per shape.
 */
export const toolShape = arg('tool', 'sync');
if (!['sync', 'async', 'tick'].includes(toolShape)) throw new Error(`--tool: expected sync, async or tick, got ${toolShape}`);
const tick = () => new Promise((resolve) => setImmediate(resolve));
/** Wraps `text(args) => string` as the tool handler of the chosen shape. */
export function shaped(text) {
  if (toolShape === 'sync') return text;
  if (toolShape === 'async') return async (args) => ({ content: [{ type: 'text', text: text(args) }] });
  return async (args) => {
    await tick();
    return { content: [{ type: 'text', text: text(args) }] };
  };
}
/** Names of the filler tools beyond echo and add. */
export const fillerNames = Array.from({ length: toolCount - 2 }, (_, i) => `tool_${String(i).padStart(3, '0')}`);

/**
 * SIGUSR2 → force GC (the process runs with --expose-gc) and print
 * `MEM {json}` on stderr. Used by the memory-per-session measurement only.
 */
export function installMemoryProbe() {
  process.on('SIGUSR2', () => {
    if (typeof globalThis.gc === 'function') {
      globalThis.gc();
      globalThis.gc();
    }
    process.stderr.write(`MEM ${JSON.stringify(process.memoryUsage())}\n`);
  });
}

export function unsupported(lib, what) {
  process.stderr.write(`UNSUPPORTED ${lib} does not support ${what}\n`);
  process.exit(3);
}

/**
 * Runs a server file for the CLI, as a child process:
 *
 *   node dist/cli/host.js <entry>          serve it on stdin/stdout
 *   node dist/cli/host.js <entry> --http P serve it on a free 127.0.0.1 port, sent to the parent over IPC,
 *                                          for a proxy on port P (the Host/Origin check expects P)
 *
 * The entry exports its server (`export default server`, `export const server`,
 * or a `create…Server()` function, possibly async). An entry that exports none
 * is taken to serve stdio itself when imported.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { McpTransport } from '../index.js';
import type { ConnectionFactory } from '../protocol.js';

interface Servable extends ConnectionFactory {
  connect(transport: McpTransport): Promise<void>;
}

/** How long an entry that exports no server has, after its import, to start reading stdin. */
const STDIO_GRACE_MS = 1000;

const isServable = (value: unknown): value is Servable =>
  typeof value === 'object' && value !== null && typeof (value as Servable).connect === 'function' && typeof (value as Servable).openConnection === 'function';

export async function findServer(module: Record<string, unknown>): Promise<Servable | undefined> {
  const names = ['default', 'server', 'createServer', ...Object.keys(module).filter((n) => /^create\w*Server$/.test(n))];
  for (const name of new Set(names)) {
    let value = module[name];
    if (typeof value === 'function') value = await (value as () => unknown)();
    if (isServable(value)) return value;
  }
  return Object.values(module).find(isServable);
}

async function main(): Promise<void> {
  const [entry, mode, publicPort] = process.argv.slice(2);
  if (entry === undefined) throw new Error('usage: host.js <entry> [--http]');
  const http = mode === '--http';
  if (!http) {
    // stdout carries the protocol: a stray console.log would corrupt it.
    console.log = (...args: unknown[]) => console.error(...args);
  }
  const module = (await import(pathToFileURL(resolve(entry)).href)) as Record<string, unknown>;
  const server = await findServer(module);
  if (http) {
    if (!server) {
      console.error(`mcpkit: ${entry} exports no server. Export it: \`export default server\` (or \`export const server\`, or \`export function createServer()\`).`);
      process.exit(5);
    }
    const { listen } = await import('../http.js');
    const allowedHosts = ['localhost', '127.0.0.1', '[::1]'].map((name) => `${name}:${publicPort}`);
    const listener = await listen(server, { port: 0, host: '127.0.0.1', legacySse: true, security: { allowedHosts } });
    process.send?.({ ready: listener.port });
    process.on('disconnect', () => process.exit(0));
    return;
  }
  if (server) {
    const { StdioTransport } = await import('../index.js');
    await server.connect(new StdioTransport());
    return;
  }
  await expectStdioServed(entry);
}

/**
 * An entry that exports no server must serve stdio itself: it reads stdin by the time its import is done
 * (or soon after). One that started something else, listen() on HTTP say, would leave the caller waiting
 * for an answer that never comes; this says what was expected instead.
 */
async function expectStdioServed(entry: string): Promise<void> {
  const reading = (): boolean => process.stdin.listenerCount('data') > 0 || process.stdin.listenerCount('readable') > 0;
  for (let waited = 0; waited < STDIO_GRACE_MS && !reading(); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  if (reading()) return;
  console.error(
    `mcpkit: ${entry} exports no server and does not serve stdio (it started something else, such as listen() on HTTP, or nothing).\n` +
      'Export the server and leave starting it to mcpkit: `export default server` (or `export const server`, or `export function createServer()`); ' +
      'or, for a server that listens on HTTP, pass its URL (mcpkit call http://127.0.0.1:3000/mcp …).',
  );
  process.exit(5);
}

main().catch(async (error: unknown) => {
  // A SyntaxError from import() names no file; its stack is Node's loader. Find the file and line.
  if (error instanceof SyntaxError || (error as { code?: unknown } | null)?.code === 'ERR_INVALID_TYPESCRIPT_SYNTAX') {
    const { locateSyntaxError } = await import('./syntax-location.js');
    const entry = process.argv[2];
    const report = entry === undefined ? undefined : locateSyntaxError(entry);
    if (report !== undefined) {
      console.error(report);
      process.exit(5);
    }
  }
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(5);
});

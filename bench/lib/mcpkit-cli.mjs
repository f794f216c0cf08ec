// The `mcpkit` command as bench/proxy.mjs and bench/proxy-profile.mjs run it: started, its URL read
// from stderr, optionally pinned to a CPU; the stdio upstream it spawned found; tools called at a
// concurrency.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/mcpkit.js', import.meta.url));

/**
 * Starts `node [nodeArgs] <bin> <args>` and resolves once it says where it listens. `cpu`: pinned
 * with taskset (its children too, the stdio upstream included). Kill what it returns by its pid.
 */
export function startMcpkit(args, { bin = BIN, nodeArgs = [], cpu } = {}) {
  const argv = [...nodeArgs, bin, ...args];
  const child = cpu === undefined ? spawn(process.execPath, argv, { stdio: ['ignore', 'ignore', 'pipe'] }) : spawn('taskset', ['-c', String(cpu), process.execPath, ...argv], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      seen += chunk;
      const match = /on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(seen);
      if (match) resolve({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`mcpkit ${args.join(' ')} exited (${code}):\n${seen}`)));
  });
}

/** The pid of the one child process of `parent` (the stdio upstream a gateway spawned). */
export function childOf(parent) {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

/** `n` calls of `tool` through `client`, `concurrency` at a time. */
export async function callsAt(client, n, concurrency, tool = 'test_simple_text') {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next++ < n) await client.callTool(tool);
  }));
}

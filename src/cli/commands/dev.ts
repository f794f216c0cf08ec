import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { parse, portOf } from '../args.js';
import { devHttp } from '../dev/http.js';
import { devStdio } from '../dev/stdio.js';
import { watchPaths } from '../dev/watch.js';
import { Exit, usage } from '../errors.js';
import { onShutdown } from '../lifecycle.js';
import { entryPath, nodeFlagsFor } from '../target.js';

export const help = `usage: mcpkit dev <entry> [--stdio | --port N] [--host H] [--watch PATH…] [--inspector]

Runs a server file and restarts it when a file under its folder changes
(node_modules and .git excepted). The entry exports its server:
\`export default server\` (or \`export const server\`, or a createServer()
function); a .ts entry needs Node ≥ 22.6 (type stripping).

  (default)     HTTP on http://127.0.0.1:3000/mcp (--port, else $PORT, else 3000).
                The port stays open across reloads; requests go to the newest
                version once it has started. A version that fails to start
                leaves the previous one serving.
  --stdio       for a client that spawns the server: \`mcpkit dev --stdio <entry>\`.
                The client's pipe stays open across reloads: the handshake is
                replayed to the new process, requests the old one left
                unanswered get an error, and the client is told that the tool,
                prompt and resource lists changed.
  --host H      interface to bind (HTTP; default 127.0.0.1)
  --watch PATH  watch this file or folder too (repeatable)
  --inspector   also start the MCP Inspector (@modelcontextprotocol/inspector,
                when installed in this project) against the HTTP endpoint

Messages from mcpkit dev go to stderr, prefixed [mcpkit dev].
exit codes: 0 stopped · 2 usage · 5 this Node cannot run the entry`;

/** One reload at a time; changes made during a reload cause one more. */
function serial(reload: () => Promise<boolean>): () => Promise<boolean> {
  let running: Promise<boolean> | undefined;
  let again = false;
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let ok: boolean;
      do {
        again = false;
        ok = await reload();
      } while (again);
      running = undefined;
      return ok;
    })();
    return running;
  };
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse('dev', argv, {
    stdio: { type: 'boolean' },
    port: { type: 'string' },
    host: { type: 'string' },
    watch: { type: 'string', multiple: true },
    inspector: { type: 'boolean' },
  });
  const [target, extra] = positionals;
  if (target === undefined || extra !== undefined) throw usage('expected exactly one <entry> (run: mcpkit dev --help)');
  if (values.stdio && (values.port !== undefined || values.inspector)) throw usage('--stdio serves stdin/stdout: --port and --inspector go with HTTP');
  const entry = entryPath(target);
  const flags = nodeFlagsFor(entry);
  const watched = [dirname(entry), ...(values.watch ?? []).map((p) => {
    if (!existsSync(p)) throw usage(`--watch ${p}: no such file or folder`);
    return resolve(p);
  })];
  const log = (line: string) => console.error(`[mcpkit dev] ${line}`);
  const name = relative(process.cwd(), entry) || entry;

  if (values.stdio) {
    return new Promise<number>((done) => {
      const supervisor = devStdio(entry, flags, log, () => {
        stopWatching();
        supervisor.close();
        done(Exit.OK);
      });
      onShutdown(() => supervisor.close());
      void supervisor.reload().then((ok) => ok && log(`serving ${name} on stdio; watching ${watched.map((w) => relative(process.cwd(), w) || '.').join(', ')}`));
      const reload = serial(() => supervisor.reload());
      const stopWatching = watchPaths(watched, (files) => {
        log(`${files.map((f) => relative(process.cwd(), f)).join(', ')} changed: reloading`);
        void reload().then((ok) => ok && log('reloaded'));
      });
    });
  }

  const port = portOf(values.port ?? process.env['PORT'], 3000);
  const http = await devHttp(entry, flags, port, values.host ?? '127.0.0.1', log);
  const reload = serial(() => http.reload());
  const stopWatching = watchPaths(watched, (files) => {
    log(`${files.map((f) => relative(process.cwd(), f)).join(', ')} changed: reloading`);
    void reload().then((ok) => ok && log('reloaded'));
  });
  // The handler goes in before the line that says where we listen (see demo.ts).
  const stopped = new Promise<number>((done) => {
    onShutdown(async () => {
      stopWatching();
      await http.close();
      done(Exit.OK);
    });
  });
  log(`serving ${name} on ${http.url}`);
  if (values.inspector) startInspector(http.url, log);
  return stopped;
}

/** The official MCP Inspector against the endpoint, when this project has it installed. */
function startInspector(url: string, log: (line: string) => void): void {
  let bin: string;
  try {
    const require = createRequire(join(process.cwd(), 'package.json'));
    const pkgPath = require.resolve('@modelcontextprotocol/inspector/package.json');
    const pkg = require(pkgPath) as { bin?: string | Record<string, string> };
    const relBin = typeof pkg.bin === 'string' ? pkg.bin : Object.values(pkg.bin ?? {})[0];
    if (!relBin) throw new Error('no bin');
    bin = join(dirname(pkgPath), relBin);
  } catch {
    log('--inspector: @modelcontextprotocol/inspector is not installed here (npm i -D @modelcontextprotocol/inspector), or run: ' +
      `npx @modelcontextprotocol/inspector --transport http --server-url ${url}`);
    return;
  }
  log(`starting the MCP Inspector against ${url}`);
  const child = spawn(process.execPath, [bin, '--transport', 'http', '--server-url', url], { stdio: ['ignore', 'inherit', 'inherit'] });
  process.once('exit', () => child.kill('SIGTERM'));
}

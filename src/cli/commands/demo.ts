import { StdioTransport } from '../../index.js';
import { listen } from '../../http.js';
import type { AuthOptions } from '../../auth.js';
import type { McpServer } from '../../index.js';
import { parse, portOf } from '../args.js';
import { Exit } from '../errors.js';
import { onShutdown } from '../lifecycle.js';
import { demoRedisState } from '../demo-redis.js';

export const help = `usage: mcpkit demo [--stdio | --port N] [--host H]

Runs the "everything" demo server (examples/everything-server): every tool,
resource, prompt and protocol feature mcpkit supports, for every revision.

  --stdio      serve newline-delimited JSON on stdin/stdout (MCP clients spawn
               this command directly: no npm in between, nothing else on stdout)
  --port N     HTTP port (default: $PORT, else 3000; 0 picks a free port)
  --host H     interface to bind (default 127.0.0.1)

A client's configuration for it: mcpkit config <client> demo (stdio), or the
URL http://127.0.0.1:3000/mcp (HTTP). MCPKIT_AUTH_ISSUER=<issuer URL> turns on
OAuth (MCPKIT_AUTH_RESOURCE: the canonical URL, default the served one; see
docs/auth.md). REDIS_URL=redis://… with MCPKIT_STATE_SECRET (≥ 32 bytes, the
same on every instance) shares the state through Redis, so several demo
instances behind any load balancer act as one server (docs/scaling.md).
MCPKIT_TRUST_PROXY (a hop count such as 1, or the proxies' addresses and CIDR
ranges, comma-separated) reads each client's address from X-Forwarded-For, for
per-client quotas behind a balancer (docs/http.md). The server stops on SIGINT/SIGTERM, when
stdin closes (--stdio), and when the process that started it exits.`;

interface DemoModule {
  createEverythingServer(options?: object): McpServer;
}

interface DemoAuthModule {
  configureAuth(server: McpServer): Promise<AuthOptions | undefined>;
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parse('demo', argv, { stdio: { type: 'boolean' }, port: { type: 'string' }, host: { type: 'string' } });
  const port = portOf(values.port ?? process.env['PORT'], 3000);
  // The demo lives in examples/ (shipped in the package) and imports 'mcpkit' like any user code.
  const demo = (await import(new URL('../../../examples/everything-server/server.js', import.meta.url).href)) as DemoModule;
  const redisUrl = values.stdio ? undefined : process.env['REDIS_URL'];
  // REDIS_URL: sessions, notifications and requestState shared with every instance on that Redis.
  const redis = redisUrl === undefined || redisUrl === '' ? undefined : await demoRedisState(redisUrl, process.env['MCPKIT_STATE_SECRET']);
  const server = demo.createEverythingServer(redis?.server ?? {});
  if (values.stdio) {
    // `npx mcpkit demo --stdio` (npm exec, lifecycle event "npx") prints no banner: only `npm run`/`npm start` do.
    const event = process.env['npm_lifecycle_event'];
    if (event !== undefined && event !== 'npx') {
      console.error('mcpkit demo: running under an npm script, which prints its banner on stdout before any JSON. MCP clients should spawn `node bin/mcpkit.js demo --stdio` directly (mcpkit config <client> demo prints the configuration).');
    }
    onShutdown(() => server.stop());
    const transport = new StdioTransport();
    await server.connect(transport);
    console.error('mcpkit demo: the everything-server on stdio (stdin closes → exit)');
    return new Promise<number>((resolve) => {
      const closed = transport.onclose;
      transport.onclose = () => {
        closed?.();
        resolve(Exit.OK);
      };
    });
  }
  // MCPKIT_AUTH_ISSUER turns on OAuth (docs/auth.md).
  const demoAuth = (await import(new URL('../../../examples/everything-server/auth.js', import.meta.url).href)) as DemoAuthModule;
  const auth = await demoAuth.configureAuth(server);
  // MCPKIT_TRUST_PROXY: the same values as the security.trustProxy option (a hop count, or addresses and CIDR ranges).
  const trustProxy = process.env['MCPKIT_TRUST_PROXY'];
  const listener = await listen(server, { port, host: values.host ?? '127.0.0.1', legacySse: true, security: { trustProxy }, ...(auth === undefined ? {} : { auth }), ...(redis?.http ?? {}) });
  // Before the line that says where it listens: a supervisor that reads it may signal at once, and a
  // SIGTERM that arrives before the handler takes the default action (killed, not a clean exit).
  onShutdown(async () => {
    await listener.close();
    await redis?.close();
  });
  console.error(`mcpkit demo: the everything-server on ${listener.url}  (every revision, 2024-11-05 … 2026-07-28)`);
  if (auth !== undefined) console.error(`  OAuth: tokens from ${auth.authorizationServers[0]} for ${listener.engine.resource}; test_scoped needs mcp:write`);
  console.error(`  Try it:  node bin/mcpkit.js inspect ${listener.url}   (npx mcpkit … in a project that has mcpkit)`);
  console.error(`           npx @modelcontextprotocol/inspector --transport http --server-url ${listener.url}`);
  if (redis !== undefined) console.error(`  Redis: ${redisUrl ?? ''} shared as instance ${redis.instanceId} (docs/scaling.md)`);
  return new Promise<number>((resolve) => listener.server.once('close', () => resolve(Exit.OK)));
}

import { readFile } from 'node:fs/promises';
import { StdioTransport } from '../../index.js';
import { listen } from '../../http.js';
import type { AuthOptions } from '../../auth.js';
import { createGateway, GatewayConfigError, parseGatewayConfig, type GatewayConfig, type UpstreamConfig } from '../../gateway.js';
import { parse, portOf } from '../args.js';
import { CliError, Exit, usage } from '../errors.js';
import { onShutdown } from '../lifecycle.js';
import { demoRedisState } from '../demo-redis.js';
import { readPackage } from '../package-root.js';

export const help = `usage: mcpkit proxy --config <file.json> [--port N] [--host H] [--stdio]
       mcpkit proxy [--port N | --stdio] -- <command> [args…]
       mcpkit proxy [--port N | --stdio] <url>

Serves other MCP servers through one endpoint (docs/gateway.md).

  --config F   a {"mcpServers": {"<name>": {"command", "args", "env", "cwd"} |
               {"url", "headers"}}} file (the Claude Desktop / Cursor format):
               each server is mounted under its name — tools and prompts as
               <name>_<tool>, resources as <name>+<uri>
  -- cmd …     one stdio server, served as it is (no namespace)
  <url>        one Streamable HTTP (or HTTP+SSE) server, served as it is
  --stdio      serve on stdin/stdout instead of HTTP
  --port N     HTTP port (default: $PORT, else 3000; 0 picks a free port)
  --host H     interface to bind (default 127.0.0.1)

Over HTTP the gateway serves every revision on /mcp. "env" of a stdio server is
merged over the gateway's own environment (null removes a variable); "headers"
go on every request to an HTTP server. The downstream client's token is never
sent upstream. Each downstream session gets its own upstream session (stdio:
its own process, unless "spawn": "shared"). MCPKIT_AUTH_ISSUER (and
MCPKIT_AUTH_RESOURCE) put OAuth in front, as for mcpkit demo; REDIS_URL with
MCPKIT_STATE_SECRET runs several gateways as one (docs/scaling.md).`;

export async function run(argv: string[]): Promise<number> {
  const split = argv.indexOf('--');
  const own = split === -1 ? argv : argv.slice(0, split);
  const command = split === -1 ? undefined : argv.slice(split + 1);
  const { values, positionals } = parse('proxy', own, { config: { type: 'string' }, stdio: { type: 'boolean' }, port: { type: 'string' }, host: { type: 'string' } });
  const config = await configOf(values.config, command, positionals);
  const port = portOf(values.port ?? process.env['PORT'], 3000);
  if (values.stdio && values.port !== undefined) throw usage('--stdio and --port exclude each other: serve on stdin/stdout or on a port');

  const redisUrl = values.stdio ? undefined : process.env['REDIS_URL'];
  const redis = redisUrl === undefined || redisUrl === '' ? undefined : await demoRedisState(redisUrl, process.env['MCPKIT_STATE_SECRET']);
  const gateway = createGateway(config, {
    // The mcpkit version: what a client's serverInfo shows, and what a bug report should name.
    info: { name: 'mcpkit-proxy', version: readPackage().version },
    // The upstreams' stderr is the gateway's (prefixed), never its stdout: with --stdio that carries the protocol.
    proxy: (name) => ({
      onStderr: (text: string) => process.stderr.write(prefixLines(name === '' ? 'upstream' : name, text)),
      onWarning: (message: string) => console.error(`mcpkit proxy: ${message}`),
    }),
    server: redis?.server ?? {},
  });
  const failed = await gateway.ready();
  for (const { name, error } of failed) console.error(`mcpkit proxy: ${name === '' ? 'the upstream' : `upstream "${name}"`} is not available yet: ${error.message}`);
  if (failed.length === gateway.proxies.size) {
    await gateway.close();
    throw new CliError('no upstream could be reached', Exit.UNREACHABLE); // main() prefixes "mcpkit proxy: "
  }
  const names = [...gateway.proxies.keys()].map((n) => (n === '' ? describe(config as UpstreamConfig) : n)).join(', ');

  if (values.stdio) {
    onShutdown(() => gateway.close());
    const transport = new StdioTransport();
    await gateway.server.connect(transport);
    console.error(`mcpkit proxy: ${names} on stdio (stdin closes → exit)`);
    return new Promise<number>((resolve) => {
      const closed = transport.onclose;
      transport.onclose = () => {
        closed?.();
        void gateway.close().finally(() => resolve(Exit.OK));
      };
    });
  }
  const auth = await authOf();
  const trustProxy = process.env['MCPKIT_TRUST_PROXY'];
  const listener = await listen(gateway.server, { port, host: values.host ?? '127.0.0.1', legacySse: true, security: { trustProxy }, ...(auth === undefined ? {} : { auth }), ...(redis?.http ?? {}) });
  onShutdown(async () => {
    await listener.close();
    await gateway.close();
    await redis?.close();
  });
  console.error(`mcpkit proxy: ${names} on ${listener.url}  (every revision, 2024-11-05 … 2026-07-28)`);
  if (auth !== undefined) console.error(`  OAuth: tokens from ${auth.authorizationServers[0]} for ${listener.engine.resource}`);
  return new Promise<number>((resolve) => listener.server.once('close', () => resolve(Exit.OK)));
}

async function configOf(file: string | undefined, command: string[] | undefined, positionals: string[]): Promise<GatewayConfig | UpstreamConfig> {
  const given = [file !== undefined, command !== undefined, positionals.length > 0].filter(Boolean).length;
  if (given === 0) throw usage('mcpkit proxy needs what to serve: --config <file.json>, -- <command> [args…], or a URL (run: mcpkit proxy --help)');
  if (given > 1) throw usage('give one of --config <file.json>, -- <command> [args…], or a URL, not several');
  if (file !== undefined) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw usage(`cannot read --config ${file}: ${(error as Error).message}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw usage(`${file} is not JSON: ${(error as Error).message}`);
    }
    try {
      return parseGatewayConfig(json, file);
    } catch (error) {
      if (error instanceof GatewayConfigError) throw usage(error.message);
      throw error;
    }
  }
  if (command !== undefined) {
    const [program, ...args] = command;
    if (program === undefined) throw usage('nothing after --: give the command that starts the upstream server, e.g. mcpkit proxy --port 3000 -- npx -y @modelcontextprotocol/server-memory');
    return { command: program, args };
  }
  if (positionals.length > 1) throw usage(`one URL, got ${positionals.length} arguments (${positionals.join(' ')}); a command goes after --`);
  const url = positionals[0]!;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw usage(`"${url}" is not an http(s) URL; a command to spawn goes after --: mcpkit proxy -- ${url}`);
  }
  return { url };
}

async function authOf(): Promise<AuthOptions | undefined> {
  const issuer = process.env['MCPKIT_AUTH_ISSUER'];
  if (issuer === undefined || issuer === '') return undefined;
  const { fetchIssuerMetadata, jwtVerifier } = await import('../../auth.js');
  let metadata: Record<string, unknown>;
  try {
    metadata = await fetchIssuerMetadata(issuer, 5_000);
  } catch (error) {
    throw new CliError(`MCPKIT_AUTH_ISSUER: ${(error as Error).message}`, Exit.UNREACHABLE);
  }
  if (typeof metadata['jwks_uri'] !== 'string') throw new CliError(`The metadata of ${issuer} has no jwks_uri`, Exit.FAILURE);
  const resource = process.env['MCPKIT_AUTH_RESOURCE'];
  return { ...(resource ? { resource } : {}), authorizationServers: [issuer], verify: jwtVerifier({ jwksUri: metadata['jwks_uri'] }), resourceName: 'mcpkit proxy' };
}

function describe(config: UpstreamConfig): string {
  return 'command' in config ? [config.command, ...(config.args ?? [])].join(' ') : config.url;
}

function prefixLines(name: string, text: string): string {
  return text.replace(/^(?=.)/gm, `[${name}] `);
}

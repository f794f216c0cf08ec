/**
 * `mcpkit call` and `mcpkit inspect --oauth` against mcpkit's resource server
 * behind oidc-provider (a real authorization server), both on 127.0.0.1: the
 * spawned CLI prints the authorization URL on stderr, the test drives it as a
 * browser would (following the authorization server's redirects up to the
 * loopback redirect URI, then loading that), and the call goes through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtVerifier } from '../../src/auth.js';
import { headlessAuthorizer } from '../../src/client.js';
import { listen, type McpHttpListener } from '../../src/http.js';
import { McpServer } from '../../src/server/server.js';
import { startOidcProvider } from '../client/auth/oidc.js';
import { killAll, mcpkit, startMcpkit } from './support.js';

let as: Awaited<ReturnType<typeof startOidcProvider>>;
let mcp: McpHttpListener;

beforeAll(async () => {
  as = await startOidcProvider({ scopes: ['mcp:read'] });
  const server = new McpServer({ name: 'cli-oauth', version: '1.0.0' });
  server.tool('whoami', { description: 'Who is calling', scopes: ['mcp:read'] }, (_args, ctx) => `${ctx.auth?.subject} with ${ctx.auth?.scopes.join(' ')}`);
  mcp = await listen(server, {
    keepAliveMs: 0,
    auth: { authorizationServers: [as.issuer], scopesSupported: ['mcp:read'], verify: jwtVerifier({ jwksUri: `${as.issuer}/jwks` }) },
  });
});

afterAll(async () => {
  await killAll();
  await mcp?.close({ graceMs: 0 });
  await as?.close();
});

/** Runs the CLI, plays the browser for the URL it prints, and returns what it printed. */
async function signedIn(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const running = startMcpkit(args);
  let stdout = '';
  running.child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const [, printed] = await running.waitForStderr(/Open this URL to authorize:\n\s+(\S+)/);
  const url = new URL(printed!);
  const redirectUri = url.searchParams.get('redirect_uri')!;
  expect(new URL(redirectUri).hostname).toBe('127.0.0.1');
  // The "browser": through the authorization server's login and consent redirects, then to the CLI's loopback server.
  const callback = await headlessAuthorizer().authorize(url, { redirectUri });
  const page = await (await fetch(callback)).text();
  expect(page).toContain('Authorization complete');
  const code = await running.exited;
  return { code, stdout, stderr: running.stderr() };
}

describe('mcpkit call/inspect --oauth', () => {
  it('without --oauth a 401 says how to sign in (exit 3)', async () => {
    const result = await mcpkit(['call', mcp.url, 'whoami']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('HTTP 401');
    expect(result.stderr).toContain('run again with --oauth');
  });

  it('call: discovers, registers, signs in through the loopback redirect, calls', async () => {
    const result = await signedIn(['call', mcp.url, 'whoami', '--oauth']);
    expect(result.stderr).not.toMatch(/eyJ[\w-]+\.[\w-]+\./); // no token echoed
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ content: [{ type: 'text', text: 'alice with mcp:read' }] });
  });

  it('inspect: the same flow, then the surface (2026-07-28)', async () => {
    const result = await signedIn(['inspect', mcp.url, '--oauth', '--json', '--era', '2026-07-28']);
    expect(result.code).toBe(0);
    expect(JSON.stringify(JSON.parse(result.stdout))).toContain('whoami');
  });

  it('refuses OAuth flags that cannot work, precisely (exit 2)', async () => {
    expect((await mcpkit(['call', 'examples/everything-server/server.js', 'greet', '--oauth'])).stderr).toContain('--oauth needs an http(s) URL target');
    const both = await mcpkit(['call', mcp.url, 'whoami', '--oauth', '--header', 'Authorization: Bearer x']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('not both');
    expect((await mcpkit(['call', mcp.url, 'whoami', '--scope', 'mcp:read'])).stderr).toContain('go with --oauth');
  });
});

/**
 * examples/oauth-client run as a user would, against oidc-provider in front of
 * mcpkit: it prints the authorization URL; the "browser" (headlessAuthorizer's
 * redirect-following, then a GET of the loopback redirect) logs in; the
 * example lists the tools and calls one.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jwtVerifier } from '../../../src/auth.js';
import { headlessAuthorizer } from '../../../src/client.js';
import { listen, type McpHttpListener } from '../../../src/http.js';
import { McpServer } from '../../../src/server/server.js';
import { startOidcProvider } from './oidc.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
let as: Awaited<ReturnType<typeof startOidcProvider>>;
let mcp: McpHttpListener;

beforeAll(async () => {
  as = await startOidcProvider({ scopes: ['notes:read'] });
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.tool('list_notes', { description: 'Lists notes', scopes: ['notes:read'] }, (_args, ctx) => `notes of ${ctx.auth?.subject}`);
  mcp = await listen(server, { keepAliveMs: 0, auth: { authorizationServers: [as.issuer], scopesSupported: ['notes:read'], verify: jwtVerifier({ jwksUri: `${as.issuer}/jwks` }) } });
});

afterAll(async () => {
  await mcp?.close({ graceMs: 0 });
  await as?.close();
});

it('examples/oauth-client: prints the URL, takes the loopback redirect, calls the tool', async () => {
  const child = spawn(process.execPath, ['examples/oauth-client/main.js', mcp.url, 'list_notes'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const authorizationUrl = await new Promise<URL>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /Open this URL to authorize:\n {2}(\S+)/.exec(stderr);
      if (match) resolve(new URL(match[1]!));
    });
    child.on('exit', () => reject(new Error(`exited before printing the URL: ${stderr}`)));
  });
  const redirectUri = authorizationUrl.searchParams.get('redirect_uri')!;
  expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  const callback = await headlessAuthorizer().authorize(authorizationUrl, { redirectUri });
  expect(await (await fetch(callback)).text()).toContain('Authorization complete');
  expect(await exited).toBe(0);
  const [tools, result] = stdout.trim().split('\n').map((line) => JSON.parse(line) as unknown);
  expect(tools).toEqual({ tools: ['list_notes'] });
  expect(result).toMatchObject({ content: [{ type: 'text', text: 'notes of alice' }] });
  expect(stderr).not.toMatch(/eyJ[\w-]+\.[\w-]+\./); // no JWT printed
});

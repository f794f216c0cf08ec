/**
 * The OAuth client end to end: mcpkit's own resource server (jwtVerifier)
 * behind oidc-provider, a real authorization server, both on 127.0.0.1.
 * Discovery from the 401, dynamic registration, login through the headless
 * authorizer, a call, 403 insufficient_scope → step-up, refresh.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtVerifier } from '../../../src/auth.js';
import { Client, type ClientOptions, headlessAuthorizer, MemoryTokenStore, McpAuthError, oauth, StreamableHttpTransport } from '../../../src/client.js';
import { listen, type McpHttpListener } from '../../../src/http.js';
import { McpServer } from '../../../src/server/server.js';
import { startOidcProvider } from './oidc.js';

let as: Awaited<ReturnType<typeof startOidcProvider>>;
let mcp: McpHttpListener;

beforeAll(async () => {
  as = await startOidcProvider({ scopes: ['mcp:read', 'mcp:write'] });
  const server = new McpServer({ name: 'oauth-e2e', version: '1.0.0' });
  server.tool('whoami', { description: 'Who is calling', scopes: ['mcp:read'] }, (_args, ctx) => `${ctx.auth?.subject} with ${ctx.auth?.scopes.join(' ')}`);
  server.tool('write_note', { description: 'Needs mcp:write', scopes: ['mcp:write'] }, () => 'written');
  mcp = await listen(server, {
    keepAliveMs: 0,
    auth: { authorizationServers: [as.issuer], scopesSupported: ['mcp:read'], verify: jwtVerifier({ jwksUri: `${as.issuer}/jwks` }) },
  });
});

afterAll(async () => {
  await mcp?.close({ graceMs: 0 });
  await as?.close();
});

function connect(provider: ReturnType<typeof oauth>, protocolVersion: ClientOptions['protocolVersion'] = '2025-11-25'): Promise<Client> {
  const client = new Client({ clientInfo: { name: 'oauth-e2e', version: '1.0.0' }, protocolVersion });
  return client.connect(new StreamableHttpTransport(mcp.url, { auth: provider })).then(() => client);
}

describe('the OAuth client against oidc-provider in front of mcpkit', () => {
  for (const revision of ['2025-11-25', '2026-07-28'] as const) {
    it(`discovers from the 401, registers, logs in headless, calls, steps up on 403 and refreshes (${revision})`, async () => {
      as.grants.length = 0;
      const store = new MemoryTokenStore();
      const provider = oauth({ authorizer: headlessAuthorizer(), store, clientName: 'e2e' });
      const client = await connect(provider, revision);
      expect((await client.callTool('whoami', {})).content).toEqual([{ type: 'text', text: 'alice with mcp:read' }]);
      const first = await provider.tokens(mcp.url);
      // offline_access asked (the metadata lists it) and honoured: a refresh token came; the JWT's scopes are the resource's.
      expect(first?.scopes).toEqual(['mcp:read']);
      expect(first?.refreshToken).toBeTypeOf('string');

      // 403 insufficient_scope: a second authorization asking for the union.
      expect((await client.callTool('write_note', {})).content).toEqual([{ type: 'text', text: 'written' }]);
      expect((await provider.tokens(mcp.url))?.scopes.sort()).toEqual(['mcp:read', 'mcp:write']);
      expect(as.grants).toEqual(['authorization_code', 'authorization_code']);

      // Expired: refreshed before the next request, the refresh token rotated.
      const held = (await provider.tokens(mcp.url))!;
      store.setTokens(held.resource.replace(/\/+$/, ''), { ...held, expiresAt: Date.now() - 1000 });
      expect((await client.callTool('whoami', {})).content).toEqual([{ type: 'text', text: 'alice with mcp:read mcp:write' }]);
      expect(as.grants).toEqual(['authorization_code', 'authorization_code', 'refresh_token']);
      const refreshed = (await provider.tokens(mcp.url))!;
      expect(refreshed.accessToken).not.toBe(held.accessToken);
      expect(refreshed.refreshToken).not.toBe(held.refreshToken);
      await client.close();
    });
  }

  it('a token the server no longer accepts: the 401 is answered by refreshing, not by a new login', async () => {
    as.grants.length = 0;
    const store = new MemoryTokenStore();
    const provider = oauth({ authorizer: headlessAuthorizer(), store });
    const client = await connect(provider);
    await client.listTools();
    const held = (await provider.tokens(mcp.url))!;
    store.setTokens(held.resource.replace(/\/+$/, ''), { ...held, accessToken: 'revoked' });
    await client.callTool('whoami', {});
    expect(as.grants).toEqual(['authorization_code', 'refresh_token']);
    await client.close();
  });

  it('a scope the user will not grant: the step-up fails with the refusal, the token never shown', async () => {
    as.grantable = (scope) => scope !== 'mcp:write';
    try {
      const provider = oauth({ authorizer: headlessAuthorizer() });
      const client = await connect(provider);
      await client.callTool('whoami', {});
      const error = await client.callTool('write_note', {}).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(McpAuthError);
      expect((error as McpAuthError).kind).toBe('denied');
      expect((error as McpAuthError).oauthError).toBe('access_denied');
      const token = (await provider.tokens(mcp.url))!.accessToken;
      expect((error as Error).message).not.toContain(token);
      await client.close();
    } finally {
      as.grantable = () => true;
    }
  });
});

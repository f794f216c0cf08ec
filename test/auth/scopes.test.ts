/** Per-tool, per-prompt and per-resource scopes: the 403 step-up challenge, decided before any status is sent, and filtered lists. */
import { afterEach, describe, expect, it } from 'vitest';
import { answer, bearer, challengeParams, initializeBody, messages, post, PROTOCOL, readEvents, rpc, startProtected, toolText, type Fixture } from './support.js';

let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function session(token: string): Promise<Record<string, string>> {
  const { mcp } = fixture!;
  const response = await post(mcp.url, initializeBody(), bearer(token));
  expect(response.status).toBe(200);
  await response.text();
  const headers = bearer(token, { 'mcp-session-id': response.headers.get('mcp-session-id')!, 'mcp-protocol-version': PROTOCOL });
  await (await post(mcp.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).text();
  return headers;
}

const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' } };

function call(id: number, name: string): ReturnType<typeof rpc> {
  return rpc(id, 'tools/call', { name, arguments: {} });
}

describe('403 insufficient_scope', () => {
  for (const responseMode of ['json', 'sse', 'auto'] as const) {
    it(`refuses a tool call without its scope before the status is committed (${responseMode} mode), then a wider token succeeds`, async () => {
      fixture = await startProtected({ listen: { responseMode } });
      const headers = await session(await fixture.token('files:read'));
      const response = await post(fixture.mcp.url, call(7, 'chatty_write'), headers);
      expect(response.status).toBe(403);
      expect(response.headers.get('content-type')).toBe('application/json');
      const origin = new URL(fixture.mcp.url).origin;
      expect(response.headers.get('www-authenticate')).toBe(
        `Bearer error="insufficient_scope", error_description="tools/call chatty_write needs the scope files:write", scope="files:write files:read", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
      );
      const body = await answer(response);
      expect(body.id).toBe(7);
      expect(body.error.message).toBe('Forbidden: tools/call "chatty_write" needs the scope(s) files:write, which the access token does not grant; re-authorize with scope "files:write files:read"');

      // Step-up: a token with the wider scope, same session (same subject).
      const wider = { ...headers, ...bearer(await fixture.token('files:read files:write')) };
      const ok = await post(fixture.mcp.url, call(8, 'chatty_write'), wider);
      expect(ok.status).toBe(200);
      const final = ok.headers.get('content-type') === 'text/event-stream' ? messages(await readEvents(ok)).at(-1) : await answer(ok);
      expect(final).toMatchObject({ id: 8, result: { content: [{ type: 'text', text: 'written' }] } });
    });
  }

  it('names every scope the operation needs in one challenge, and honours scope hierarchies', async () => {
    fixture = await startProtected({ implies: (granted, required) => granted === 'files' && required.startsWith('files:') });
    const headers = await session(await fixture.token('profile'));
    const response = await post(fixture.mcp.url, call(1, 'admin_wipe'), headers);
    expect(response.status).toBe(403);
    expect(challengeParams(response.headers.get('www-authenticate')).scope).toBe('files:write admin profile');
    const broad = { ...headers, ...bearer(await fixture.token('files')) };
    expect((await post(fixture.mcp.url, call(2, 'write_file'), broad)).status).toBe(200);
    const stillMissing = await post(fixture.mcp.url, call(3, 'admin_wipe'), broad);
    expect(stillMissing.status).toBe(403);
    expect(challengeParams(stillMissing.headers.get('www-authenticate')).error_description).toBe('tools/call admin_wipe needs the scope admin');
  });

  it('checks prompts, static resources, resource templates, subscriptions and completions too', async () => {
    fixture = await startProtected();
    const headers = await session(await fixture.token());
    const cases: [ReturnType<typeof rpc>, string][] = [
      [rpc(1, 'prompts/get', { name: 'secret_prompt' }), 'prompts:secret'],
      [rpc(2, 'resources/read', { uri: 'file:///secret.txt' }), 'files:read'],
      [rpc(3, 'resources/read', { uri: 'file:///private/notes' }), 'files:read'],
      [rpc(4, 'resources/subscribe', { uri: 'file:///secret.txt' }), 'files:read'],
      [rpc(5, 'completion/complete', { ref: { type: 'ref/prompt', name: 'secret_prompt' }, argument: { name: 'x', value: '' } }), 'prompts:secret'],
    ];
    for (const [message, scope] of cases) {
      const response = await post(fixture.mcp.url, message, headers);
      expect(response.status, JSON.stringify(message)).toBe(403);
      expect(challengeParams(response.headers.get('www-authenticate')).scope).toBe(scope);
      await response.text();
    }
    const open = await post(fixture.mcp.url, rpc(6, 'resources/read', { uri: 'file:///public.txt' }), headers);
    expect(open.status).toBe(200);
    expect((await answer(open)).result.contents[0]!.text).toBe('public');
  });

  it('refuses a batch when any of its requests needs a missing scope, and runs nothing', async () => {
    fixture = await startProtected();
    const headers = await session(await fixture.token());
    const response = await post(fixture.mcp.url, [call(1, 'whoami'), call(2, 'write_file')], headers);
    expect(response.status).toBe(403);
    expect(challengeParams(response.headers.get('www-authenticate')).scope).toBe('files:write');
  });

  it('answers a 2026-07-28 request the same way', async () => {
    fixture = await startProtected();
    const token = await fixture.token('files:read');
    const response = await post(fixture.mcp.url, rpc(1, 'tools/call', { name: 'write_file', arguments: {}, _meta: MODERN_META }), bearer(token, {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'write_file',
    }));
    expect(response.status).toBe(403);
    expect(challengeParams(response.headers.get('www-authenticate'))).toMatchObject({ error: 'insufficient_scope', scope: 'files:write files:read' });
  });
});

describe('lists', () => {
  it('lists everything by default (a call then steps up)', async () => {
    fixture = await startProtected();
    const headers = await session(await fixture.token());
    const tools = (await answer(await post(fixture.mcp.url, rpc(1, 'tools/list'), headers))).result.tools.map((t) => t.name);
    expect(tools).toEqual(['whoami', 'token_length', 'write_file', 'admin_wipe', 'chatty_write']);
  });

  it('with filterLists, lists only what the token allows', async () => {
    fixture = await startProtected({ filterLists: true });
    const headers = await session(await fixture.token('files:write'));
    const names = async (method: string, key: string, field = 'name'): Promise<string[]> =>
      ((await answer(await post(fixture!.mcp.url, rpc(1, method), headers))).result[key] as Record<string, string>[]).map((t) => t[field]!);
    expect(await names('tools/list', 'tools')).toEqual(['whoami', 'token_length', 'write_file', 'chatty_write']);
    expect(await names('prompts/list', 'prompts')).toEqual([]);
    expect(await names('resources/list', 'resources', 'uri')).toEqual(['file:///public.txt']);
    expect(await names('resources/templates/list', 'resourceTemplates', 'uriTemplate')).toEqual([]);
  });
});

describe('what handlers see', () => {
  it('gives ctx.auth (subject, client, scopes, expiry, claims) and never puts the token on it or on authInfo', async () => {
    fixture = await startProtected();
    const token = await fixture.token('files:read files:write', { extra: { client_id: 'app-1' } });
    const headers = await session(token);
    const seen = JSON.parse(await toolText(await post(fixture.mcp.url, call(1, 'whoami'), headers))) as { auth: { expiresAt: unknown; claims: unknown }; authInfo: { token?: string }; hasWrite: boolean };
    expect(seen.auth).toMatchObject({ subject: 'user-1', clientId: 'app-1', scopes: ['files:read', 'files:write'] });
    expect(typeof seen.auth.expiresAt).toBe('number');
    expect(seen.auth.claims).toMatchObject({ iss: fixture.as.issuer, aud: fixture.mcp.url, sub: 'user-1' });
    expect(seen.hasWrite).toBe(true);
    expect(JSON.stringify(seen)).not.toContain(token);
    expect(seen.authInfo.token).toBeUndefined();
    // Only the explicit accessor reaches it.
    const length = await toolText(await post(fixture.mcp.url, call(2, 'token_length'), headers));
    expect(Number(length)).toBe(token.length);
  });
});

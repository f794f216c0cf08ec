/** examples/auth-jwt, run as a user runs it (from dist/), against the test authorization server. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, type TestAuthServer } from './as.js';
import { bearer, challengeParams, document, initializeBody, post, PROTOCOL, rpc, toolText } from './support.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
let as: TestAuthServer;
let child: ChildProcess | undefined;
beforeAll(async () => {
  as = await startAuthServer();
});
afterAll(async () => {
  child?.kill('SIGKILL');
  await as.close();
});

function start(env: Record<string, string>): Promise<string> {
  child = spawn(process.execPath, ['examples/auth-jwt/server.js'], { cwd: root, env: { ...process.env, PORT: '0', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    child!.stderr!.on('data', (chunk) => {
      seen += String(chunk);
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (match) resolve(match[1]!);
    });
    child!.once('exit', () => reject(new Error(`the example exited:\n${seen}`)));
  });
}

async function session(url: string, token: string): Promise<Record<string, string>> {
  const init = await post(url, initializeBody(), bearer(token));
  await init.text();
  return bearer(token, { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': PROTOCOL });
}

describe('examples/auth-jwt', () => {
  it('keeps notes per user, needs notes:read to list and notes:write (by step-up) to add', async () => {
    const url = await start({ OAUTH_ISSUER: as.issuer, OAUTH_JWKS_URI: `${as.issuer}/jwks` });
    expect((await document(await fetch(`${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`)))['scopes_supported']).toEqual(['notes:read']);
    expect((await post(url, initializeBody())).status).toBe(401);

    const ada = await session(url, await as.token({ aud: url, sub: 'ada', scope: 'notes:read' }));
    expect(await toolText(await post(url, rpc(1, 'tools/call', { name: 'list_notes' }), ada))).toBe('No notes yet.');
    const add = rpc(2, 'tools/call', { name: 'add_note', arguments: { text: 'buy milk' } });
    const refused = await post(url, add, ada);
    expect(refused.status).toBe(403);
    expect(challengeParams(refused.headers.get('www-authenticate')).scope).toBe('notes:write notes:read');

    const wider = { ...ada, ...bearer(await as.token({ aud: url, sub: 'ada', scope: 'notes:read notes:write' })) };
    expect(await toolText(await post(url, add, wider))).toBe('Saved note 1 for ada.');
    expect(await toolText(await post(url, rpc(3, 'tools/call', { name: 'list_notes' }), wider))).toBe('1. buy milk');

    const bob = await session(url, await as.token({ aud: url, sub: 'bob', scope: 'notes:read' }));
    expect(await toolText(await post(url, rpc(4, 'tools/call', { name: 'list_notes' }), bob))).toBe('No notes yet.');
  });
});

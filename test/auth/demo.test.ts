/**
 * The demo with MCPKIT_AUTH_ISSUER set, run as users run it (`node
 * examples/everything-server/main.js` and `mcpkit demo`, from dist/): every
 * request needs a JWT for the served URL, and `test_scoped` needs mcp:write.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, type TestAuthServer } from './as.js';
import { answer, bearer, challengeParams, document, post, rpc, toolText } from './support.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];
let as: TestAuthServer;
beforeAll(async () => {
  as = await startAuthServer();
});
afterAll(() => as.close());
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function start(args: string[], env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, PORT: '0', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr.on('data', (chunk) => {
      seen += String(chunk);
      const match = /(?:listening on|the everything-server on) (http:\/\/\S+)/.exec(seen);
      if (match && seen.includes('OAuth:')) resolve(match[1]!);
    });
    child.once('exit', () => reject(new Error(`the demo exited:\n${seen}`)));
  });
}

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' } };
const modern = (name: string): Record<string, unknown> => ({ name, arguments: {}, _meta: META });
const modernHeaders = (name: string): Record<string, string> => ({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name });

describe.each([
  ['examples/everything-server/main.js', ['examples/everything-server/main.js']],
  ['mcpkit demo', ['bin/mcpkit.js', 'demo', '--port', '0']],
])('%s with MCPKIT_AUTH_ISSUER', (_label, args) => {
  it('needs a token for the served URL, and mcp:write for test_scoped', async () => {
    const url = await start(args, { MCPKIT_AUTH_ISSUER: as.issuer });
    const metadata = await document(await fetch(`${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`));
    expect(metadata).toMatchObject({ resource: url, authorization_servers: [as.issuer], resource_name: 'mcpkit everything-server' });

    const anonymous = await post(url, rpc(1, 'tools/call', modern('test_simple_text')), modernHeaders('test_simple_text'));
    expect(anonymous.status).toBe(401);
    await anonymous.text();
    const foreign = await post(url, rpc(1, 'tools/call', modern('test_simple_text')), bearer(await as.token({ aud: 'https://elsewhere.example/mcp' }), modernHeaders('test_simple_text')));
    expect(foreign.status).toBe(401);
    await foreign.text();

    const reader = await as.token({ aud: url, scope: 'mcp:read' });
    const simple = await post(url, rpc(2, 'tools/call', modern('test_simple_text')), bearer(reader, modernHeaders('test_simple_text')));
    expect(await toolText(simple)).toBe('This is a simple text response for testing.');
    const refused = await post(url, rpc(3, 'tools/call', modern('test_scoped')), bearer(reader, modernHeaders('test_scoped')));
    expect(refused.status).toBe(403);
    expect(challengeParams(refused.headers.get('www-authenticate'))).toMatchObject({ error: 'insufficient_scope', scope: 'mcp:write mcp:read' });
    await refused.text();

    const writer = await as.token({ aud: url, scope: 'mcp:read mcp:write', sub: 'ada' });
    const scoped = await post(url, rpc(4, 'tools/call', modern('test_scoped')), bearer(writer, modernHeaders('test_scoped')));
    expect((await answer(scoped)).result.content[0]!.text).toBe('Hello ada: your token grants mcp:read mcp:write');
  });
});

describe('the demo without MCPKIT_AUTH_ISSUER', () => {
  it('has no test_scoped tool and needs no token', async () => {
    const child = spawn(process.execPath, ['examples/everything-server/main.js'], { cwd: root, env: { ...process.env, PORT: '0', MCPKIT_AUTH_ISSUER: '' }, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    const url = await new Promise<string>((resolve) => {
      let seen = '';
      child.stderr.on('data', (chunk) => {
        seen += String(chunk);
        const match = /listening on (http:\/\/\S+)/.exec(seen);
        if (match) resolve(match[1]!);
      });
    });
    const list = await post(url, rpc(1, 'tools/list', { _meta: META }), { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' });
    expect(list.status).toBe(200);
    expect((await answer(list)).result.tools.map((t) => t.name)).not.toContain('test_scoped');
  });
});

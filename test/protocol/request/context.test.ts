import { describe, expect, it } from 'vitest';
import { McpServer } from '../../../src/server/server.js';
import { client, connected } from '../support.js';

function make(): McpServer {
  const s = new McpServer({ name: 'ctx', version: '1.0.0' });
  s.tool('whoami', {}, (_args, ctx) =>
    JSON.stringify({
      requestId: ctx.requestId,
      method: ctx.method,
      era: ctx.era,
      protocolVersion: ctx.protocolVersion,
      client: ctx.client,
      authInfo: ctx.authInfo ?? null,
      meta: ctx.meta ?? null,
    }),
  );
  return s;
}

const CAPS = { roots: { listChanged: true }, sampling: {} };
const INFO = { name: 'probe', version: '9.9.9' };

describe('the request context', () => {
  it('carries the request id, client info and capabilities, and auth info (legacy)', async () => {
    const c = await connected(make(), { capabilities: CAPS, clientInfo: INFO, authInfo: { clientId: 'ada', scopes: ['read'] } });
    const seen = JSON.parse(((await c.callTool('whoami', {}, { progressToken: 'p' }))['content'] as { text: string }[])[0]!.text);
    expect(seen).toEqual({
      requestId: 2,
      method: 'tools/call',
      era: 'legacy',
      protocolVersion: '2025-11-25',
      client: { info: INFO, capabilities: CAPS },
      authInfo: { clientId: 'ada', scopes: ['read'] },
      meta: { progressToken: 'p' },
    });
  });

  it('the negotiated revision is the one the client asked for', async () => {
    const c = await connected(make(), { protocolVersion: '2025-03-26' });
    const seen = JSON.parse(((await c.callTool('whoami'))['content'] as { text: string }[])[0]!.text);
    expect(seen.protocolVersion).toBe('2025-03-26');
  });

  it('carries the same on the 2026-07-28 path, from the request _meta', async () => {
    const c = client(make(), { modern: true, capabilities: CAPS, clientInfo: INFO, authInfo: { clientId: 'ada' } });
    const seen = JSON.parse(((await c.callTool('whoami'))['content'] as { text: string }[])[0]!.text);
    expect(seen).toMatchObject({
      requestId: 1,
      era: 'modern',
      protocolVersion: '2026-07-28',
      client: { info: INFO, capabilities: CAPS },
      authInfo: { clientId: 'ada' },
    });
  });
});

/**
 * loopbackAuthorizer as a CLI uses it: the redirect arrives at a server on
 * 127.0.0.1; the "browser" here is fetch following the authorization
 * server's redirect. Also client credentials, with a secret and with a key.
 */
import { exportPKCS8, generateKeyPair, jwtVerify } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client, clientCredentials, loopbackAuthorizer, McpAuthError, oauth, StreamableHttpTransport, type HttpAuthProvider } from '../../../src/client.js';
import { startFakeAs, startFakeMcp, type FakeServer } from './fake.js';

let as: FakeServer;
let mcp: FakeServer;

beforeEach(async () => {
  as = await startFakeAs();
  mcp = await startFakeMcp(() => as.url);
});

afterEach(async () => {
  await Promise.all([as.close(), mcp.close()]);
});

async function listWith(auth: HttpAuthProvider): Promise<void> {
  const client = new Client({ clientInfo: { name: 'loopback', version: '1.0.0' }, protocolVersion: '2025-11-25' });
  await client.connect(new StreamableHttpTransport(`${mcp.url}/mcp`, { auth }));
  await client.listTools();
  await client.close();
}

describe('loopbackAuthorizer', () => {
  it('receives the redirect on 127.0.0.1 and the flow completes; the page says so', async () => {
    let page = '';
    const authorizer = loopbackAuthorizer({
      open: async (url) => {
        page = await (await fetch(url)).text();
      },
    });
    try {
      await listWith(oauth({ authorizer }));
      expect(page).toContain('Authorization complete');
      const registered = JSON.parse(as.seen.find((r) => r.path === '/register')!.body) as { redirect_uris: string[]; application_type: string };
      expect(registered.redirect_uris[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      expect(registered.application_type).toBe('native');
    } finally {
      await authorizer.close();
    }
  });

  it('gives up after timeoutMs when no redirect comes', async () => {
    const authorizer = loopbackAuthorizer({ timeoutMs: 50, open: () => undefined });
    try {
      const error = await listWith(oauth({ authorizer })).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(McpAuthError);
      expect((error as Error).message).toMatch(/no redirect to http:\/\/127\.0\.0\.1:\d+\/callback within 50 ms/);
    } finally {
      await authorizer.close();
    }
  });
});

describe('clientCredentials', () => {
  it('client_secret_basic: no user, no redirect, the token endpoint asked directly', async () => {
    await listWith(clientCredentials({ clientId: 'job', clientSecret: 's3cret' }));
    const token = as.seen.find((r) => r.path === '/token')!;
    expect(new URLSearchParams(token.body).get('grant_type')).toBe('client_credentials');
    expect(new URLSearchParams(token.body).get('resource')).toBe(`${mcp.url}/mcp`);
    expect(token.authorization).toBe(`Basic ${Buffer.from('job:s3cret').toString('base64')}`);
    expect(as.seen.some((r) => r.path === '/authorize' || r.path === '/register')).toBe(false);
  });

  it('private_key_jwt: a signed assertion for the issuer, iss and sub the client id', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    await listWith(clientCredentials({ clientId: 'job', privateKey: await exportPKCS8(privateKey), algorithm: 'ES256' }));
    const body = new URLSearchParams(as.seen.find((r) => r.path === '/token')!.body);
    expect(body.get('client_assertion_type')).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    const { payload } = await jwtVerify(body.get('client_assertion')!, publicKey, { audience: as.url });
    expect(payload).toMatchObject({ iss: 'job', sub: 'job' });
  });

  it('refuses a config with neither or both credentials, naming them', () => {
    expect(() => clientCredentials({ clientId: 'job' })).toThrow('give exactly one of clientSecret (client_secret_basic/post) and privateKey (private_key_jwt)');
    expect(() => clientCredentials({ clientId: 'job', clientSecret: 'x', privateKey: 'y' })).toThrow('give exactly one of');
    expect(() => clientCredentials({ clientId: 'job', clientSecret: 'x', clientSceret: 'x' } as never)).toThrow('did you mean `clientSecret`?');
  });
});

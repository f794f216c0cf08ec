/** The derived tools as a composition provider: provided and mounted under a namespace, arguments validated, calls reaching the API. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, InMemoryTransport } from '../../src/client.js';
import { openApiProvider } from '../../src/openapi.js';
import { McpServer } from '../../src/server/server.js';
import { petstore, startBackend, type Backend } from './petstore.js';

let backend: Backend;
beforeAll(async () => {
  backend = await startBackend();
});
afterAll(() => backend.close());

describe('openApiProvider', () => {
  it('is served by server.provide() and server.mount() like any provider', async () => {
    const provider = await openApiProvider(petstore('3.1'), { baseUrl: backend.url, include: { operations: ['getPet', 'listPets'] } });
    expect(provider.label).toBe('openapi "Petstore"');
    const server = new McpServer({ name: 'gateway', version: '1.0.0' });
    server.provide(provider);
    server.mount(provider, { namespace: 'pets' });
    const client = new Client();
    await client.connect(new InMemoryTransport(server));
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['listPets', 'getPet', 'pets_listPets', 'pets_getPet']));
    expect((await client.callTool('pets_getPet', { petId: 4 })).structuredContent).toEqual({ id: 4, name: 'Rex', tag: 'dog' });
    expect(backend.requests.at(-1)!.url).toBe('/api/pets/4');
    const before = backend.requests.length;
    const refused = await client.callTool('getPet', { petId: 'four' }).catch((e: unknown) => e);
    expect(JSON.stringify(refused)).toMatch(/petId/);
    expect(backend.requests.length).toBe(before);
    await client.close();
  });
});

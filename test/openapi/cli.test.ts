/** `mcpkit openapi`: a document file served over HTTP (filters applied) and over stdio, bad input refused. */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StdioClientTransport, StreamableHttpTransport } from '../../src/client.js';
import { petstore, startBackend, type Backend } from './petstore.js';

const BIN = new URL('../../bin/mcpkit.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'openapi-cli-'));
const file = join(dir, 'petstore.yaml');
let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
  writeFileSync(file, stringify(petstore('3.0')));
});
afterAll(async () => {
  await backend.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('mcpkit openapi', () => {
  it('serves the kept operations over HTTP and calls the API with the credential from the environment', async () => {
    const child = spawn(process.execPath, [BIN, 'openapi', file, '--base-url', backend.url, '--port', '0', '--include-tags', 'pets,media', '--exclude-operations', 'putPhoto', '--credential', 'apiKey=PETS_KEY', '--header', 'User-Agent: cli-test'], {
      env: { ...process.env, PETS_KEY: 'from-env' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stderr.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          const match = /on (http:\/\/\S+)/.exec(text);
          if (match !== null) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`exited ${String(code)}: ${text}`)));
      });
      const client = new Client();
      await client.connect(new StreamableHttpTransport(url));
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['listPets', 'createPet', 'getPet', 'getPhoto']);
      const result = await client.callTool('listPets', { limit: 2 });
      expect(result.structuredContent).toEqual({ result: [{ id: 1, name: 'Rex', tag: null }] });
      expect(backend.requests.at(-1)!.headers['x-api-key']).toBe('from-env');
      expect(backend.requests.at(-1)!.headers['user-agent']).toBe('cli-test');
      await client.close();
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('serves over stdio, with --resources some GETs as resources', async () => {
    const client = new Client();
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'openapi', file, '--base-url', backend.url, '--stdio', '--include-operations', 'getPet,count', '--resources'] }));
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['getPet']);
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual([`${backend.url}/count`]);
      expect((await client.readResource(`${backend.url}/count`)).contents).toEqual([{ uri: `${backend.url}/count`, mimeType: 'application/json', text: '42' }]);
      expect((await client.callTool('getPet', { petId: 9 })).structuredContent).toEqual({ id: 9, name: 'Rex', tag: 'dog' });
    } finally {
      await client.close();
    }
  });

  it('refuses a missing --base-url, a Swagger 2.0 document and an unknown credential scheme with exit 2', () => {
    const run = (...args: string[]) => spawnSync(process.execPath, [BIN, 'openapi', ...args], { encoding: 'utf8', env: { ...process.env, K: 'v' } });
    const noBase = run(file);
    expect(noBase.status).toBe(2);
    expect(noBase.stderr).toContain('--base-url is required');
    const swagger = join(dir, 'swagger.json');
    writeFileSync(swagger, JSON.stringify({ swagger: '2.0', info: {}, paths: {} }));
    const old = run(swagger, '--base-url', backend.url);
    expect(old.status).toBe(2);
    expect(old.stderr).toContain('Swagger 2.0 document');
    const scheme = run(file, '--base-url', backend.url, '--credential', 'nope=K');
    expect(scheme.status).toBe(2);
    expect(scheme.stderr).toContain('declares no security scheme "nope"');
  });
});

/** `mcpkit server-json`: a server.json the MCP Registry accepts, validated against its schema (test/registry/). */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { killAll, mcpkit, ROOT } from './support.js';

const SERVER = 'test/cli/fixtures/tools-server.mjs';
const PACKAGE = 'test/cli/fixtures/registry-package.json';
afterAll(killAll);

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
const validate = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'test/registry/server.schema.json'), 'utf8')) as object);

function tempPackage(changes: Record<string, unknown>): string {
  const file = join(mkdtempSync(join(tmpdir(), 'mcpkit-server-json-')), 'package.json');
  writeFileSync(file, JSON.stringify({ ...(JSON.parse(readFileSync(join(ROOT, PACKAGE), 'utf8')) as object), ...changes }));
  return file;
}

describe('mcpkit server-json', () => {
  it('prints a server.json valid against the registry schema, from package.json and the server', async () => {
    const result = await mcpkit(['server-json', SERVER, '--package', PACKAGE, '--remote', 'https://mcp.example.com/mcp']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout) as unknown;
    expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
    // The schema is not a rubber stamp: the registry's own invalid examples fail it.
    expect(validate({ ...(document as object), name: 'weather' })).toBe(false);
    expect(validate({ ...(document as object), packages: [{ registryType: 'npm', identifier: 'x', version: 'latest', transport: { type: 'stdio' } }] })).toBe(false);
    expect(document).toEqual({
      $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
      name: 'io.github.example/cli-fixture',
      description: "Echoes, fails and asks: the CLI tests' server",
      version: '1.2.3',
      websiteUrl: 'https://example.com/cli-fixture',
      repository: { url: 'https://github.com/example/cli-fixture', source: 'github', subfolder: 'packages/server' },
      packages: [{ registryType: 'npm', identifier: '@example/cli-fixture', version: '1.2.3', runtimeHint: 'npx', transport: { type: 'stdio' } }],
      remotes: [{ type: 'streamable-http', url: 'https://mcp.example.com/mcp' }],
    });
  });

  it('writes --out, in the legacy era too', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'mcpkit-server-json-')), 'server.json');
    const result = await mcpkit(['server-json', SERVER, '--package', PACKAGE, '--era', 'legacy', '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    const document = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>;
    expect(validate(document)).toBe(true);
    expect(document['name']).toBe('io.github.example/cli-fixture');
  });

  it('refuses what the registry would refuse, saying what to change', async () => {
    const cases: [Record<string, unknown>, string[], RegExp][] = [
      [{ mcpName: undefined }, [], /has no "mcpName": add "mcpName": "io\.github\.<you>\/<server>"/],
      [{}, ['--name', 'weather'], /"weather" is not a registry name/],
      [{ version: '2.0.0' }, [], /says version 2\.0\.0 but the server says 1\.2\.3/],
      [{ description: 'x'.repeat(101) }, [], /the description must be 1 to 100 characters for the registry .* has 101/],
    ];
    for (const [changes, extra, message] of cases) {
      const result = await mcpkit(['server-json', SERVER, '--package', tempPackage(changes), ...extra]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    const bad = await mcpkit(['server-json', SERVER, '--package', PACKAGE, '--remote', 'ftp://x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--remote must be an http(s) URL');
  });

  it('without a bin or a remote it still prints a valid file, and says nothing runs it', async () => {
    const result = await mcpkit(['server-json', SERVER, '--package', tempPackage({ bin: undefined })]);
    expect(result.code).toBe(0);
    expect(validate(JSON.parse(result.stdout))).toBe(true);
    expect(result.stderr).toContain('no way to run the server is listed');
  });
});

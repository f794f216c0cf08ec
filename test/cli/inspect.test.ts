/** `mcpkit inspect`: a deterministic summary or JSON of a server's surface, in both eras. */
import { afterAll, describe, expect, it } from 'vitest';
import { killAll, mcpkit, startMcpkit } from './support.js';

const SERVER = 'test/cli/fixtures/tools-server.mjs';
afterAll(killAll);

const SUMMARY = `cli-fixture 1.2.3
protocol: 2026-07-28 (modern); server/discover lists 2026-07-28
capabilities: tools (listChanged), resources (subscribe, listChanged), prompts (listChanged), logging, completions
instructions: Tools for the CLI tests.

tools (3)
  echo(a: number, b?: integer = 1, flag?: boolean, s?: string, tags?: string[], opts?: object)
      Returns its arguments as JSON
  fail()
      Always a tool error
  ask()
      Asks for a name and a count

resources (1)
  config://app  application/json
      App settings

resource templates (1)
  city://{name}/stats  text/plain

prompts (1)
  plan(city, days?)
      Plan a trip
`;

describe('mcpkit inspect', () => {
  it('prints the same human summary every time', async () => {
    const first = await mcpkit(['inspect', SERVER]);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(SUMMARY);
    expect((await mcpkit(['inspect', SERVER])).stdout).toBe(first.stdout);
  });

  it('--json holds the lists, the capabilities and the server/discover answer (2026-07-28)', async () => {
    const result = await mcpkit(['inspect', SERVER, '--json']);
    const surface = JSON.parse(result.stdout);
    expect(surface.era).toBe('modern');
    expect(surface.serverInfo).toEqual({ name: 'cli-fixture', version: '1.2.3' });
    expect(surface.tools.map((t: { name: string }) => t.name)).toEqual(['echo', 'fail', 'ask']);
    expect(surface.resourceTemplates[0].uriTemplate).toBe('city://{name}/stats');
    expect(surface.prompts[0].arguments).toEqual([{ name: 'city', required: true }, { name: 'days' }]);
    expect(surface.discover).toEqual({ supportedVersions: ['2026-07-28'], capabilities: surface.capabilities, instructions: 'Tools for the CLI tests.' });
  });

  it('--era legacy holds the initialize answer instead', async () => {
    const surface = JSON.parse((await mcpkit(['inspect', SERVER, '--json', '--era', 'legacy'])).stdout);
    expect(surface.era).toBe('legacy');
    expect(surface.protocolVersion).toBe('2025-11-25');
    expect(surface.initialize.serverInfo).toEqual({ name: 'cli-fixture', version: '1.2.3' });
    expect(surface.discover).toBeUndefined();
  });

  it('inspects a URL, and the two eras list the same tools', async () => {
    const demo = startMcpkit(['demo', '--port', '0']);
    const url = (await demo.waitForStderr(/on (http:\/\/\S+\/mcp)/))[1]!;
    const modern = JSON.parse((await mcpkit(['inspect', url, '--json'])).stdout);
    const legacy = JSON.parse((await mcpkit(['inspect', url, '--json', '--era', 'legacy'])).stdout);
    expect(modern.tools.length).toBeGreaterThan(20);
    expect(legacy.tools.map((t: { name: string }) => t.name)).toEqual(modern.tools.map((t: { name: string }) => t.name));
  });

  it('needs exactly one target', async () => {
    expect((await mcpkit(['inspect'])).code).toBe(2);
    expect((await mcpkit(['inspect', SERVER, 'extra'])).code).toBe(2);
  });
});

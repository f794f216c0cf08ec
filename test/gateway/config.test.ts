import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { GatewayConfigError, parseGatewayConfig, upstreamEnv } from '../../src/gateway/config.js';

const bad = (value: unknown): string => {
  try {
    parseGatewayConfig(value, 'gw.json');
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayConfigError);
    return (error as Error).message;
  }
  throw new Error('accepted');
};

describe('the mcpServers config file', () => {
  it('reads the Claude Desktop / Cursor format, stdio and HTTP', () => {
    const config = parseGatewayConfig({
      mcpServers: {
        fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { A: '1', B: null }, cwd: '/tmp' },
        remote: { url: 'https://mcp.example.com/mcp', headers: { 'x-api-key': 'k' }, type: 'streamable-http' },
        'my_server.v2': { type: 'stdio', command: 'node', spawn: 'shared' },
      },
    });
    expect(config.mcpServers['fs']).toEqual({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { A: '1', B: null }, cwd: '/tmp' });
    expect(config.mcpServers['remote']).toEqual({ url: 'https://mcp.example.com/mcp', headers: { 'x-api-key': 'k' }, type: 'streamable-http' });
    expect(config.mcpServers['my_server.v2']).toEqual({ command: 'node', spawn: 'shared' });
  });

  it('names a misspelt key and the right one', () => {
    expect(bad({ mcpServers: { fs: { command: 'x', arg: ['a'] } } })).toBe('gw.json: mcpServers.fs: unknown key `arg` in a stdio server — did you mean `args`?');
    expect(bad({ mcpServers: { web: { url: 'http://h/mcp', header: {} } } })).toContain('did you mean `headers`?');
    expect(bad({ mcpServer: {} })).toContain('did you mean `mcpServers`?');
    // A stdio key on an HTTP server: the HTTP keys are the valid ones.
    expect(bad({ mcpServers: { web: { url: 'http://h/mcp', env: {} } } })).toContain('unknown key `env` in a HTTP server');
  });

  it('says what is wrong, where', () => {
    expect(bad([])).toContain('must be a JSON object');
    expect(bad({ mcpServers: {} })).toContain('names no server');
    expect(bad({ mcpServers: { fs: {} } })).toContain('needs "command" (a program to spawn) or "url"');
    expect(bad({ mcpServers: { fs: { command: 'a', url: 'http://h' } } })).toContain('has both "command" and "url"');
    expect(bad({ mcpServers: { fs: { command: 'a', args: ['x', 2] } } })).toBe('gw.json: mcpServers.fs.args[1] must be a string (got number)');
    expect(bad({ mcpServers: { fs: { command: 'a', env: { PATH: 1 } } } })).toContain('mcpServers.fs.env.PATH must be a string (or null to remove the variable)');
    expect(bad({ mcpServers: { web: { url: 'ftp://h' } } })).toContain('must be http: or https:');
    expect(bad({ mcpServers: { web: { url: 'not a url' } } })).toContain('is not a URL');
    expect(bad({ mcpServers: { web: { url: 'http://h', headers: { 'bad header': 'x' } } } })).toContain('is not an HTTP header name');
    expect(bad({ mcpServers: { web: { url: 'http://h', headers: { a: 'x\r\ny: z' } } } })).toContain('line break');
    expect(bad({ mcpServers: { fs: { command: 'a', spawn: 'always' } } })).toContain('must be "session"');
    expect(bad({ mcpServers: { '1fs': { command: 'a' } } })).toContain('must start with a letter');
    expect(bad({ mcpServers: { 'a b': { command: 'a' } } })).toContain('"a b_<tool>"');
  });

  it('refuses anything else with a GatewayConfigError, never another exception', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (top, server) => {
        for (const value of [top, { mcpServers: top }, { mcpServers: { s: server } }]) {
          try {
            parseGatewayConfig(value);
          } catch (error) {
            if (!(error instanceof GatewayConfigError)) throw error;
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('merges env over the gateway environment; null removes a variable', () => {
    expect(upstreamEnv({ PATH: '/bin', HOME: '/h', KEEP: 'k' }, { HOME: '/other', PATH: null, NEW: 'n' })).toEqual({ HOME: '/other', KEEP: 'k', NEW: 'n' });
  });
});

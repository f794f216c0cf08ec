/**
 * Invalid handler results in plain JavaScript (test/fixtures/bad-results-server.mjs, its own
 * process on stdio): the exact answer each gets on the wire, schema-checked, and the log line on
 * stderr that names the tool, resource or prompt and what it returned (issue 28.2).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expectValidWire } from '../../support/wire-schema.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/bad-results-server.mjs', import.meta.url));
const VERSION = '2025-11-25';

function runFixture(messages: unknown[]): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const child = spawn(process.execPath, [FIXTURE], { stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(messages.map((m) => `${JSON.stringify(m)}\n`).join(''));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ stdout, stderr, code })));
}

describe('invalid results from a plain JavaScript server', () => {
  it('each becomes a valid error for the client and a log line for the author', async () => {
    const requests = [
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'txt', arguments: {} } },
      { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'test://seven' } },
      { jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: 'test://nothing' } },
      { jsonrpc: '2.0', id: 5, method: 'prompts/get', params: { name: 'nothing' } },
    ];
    const { stdout, stderr, code } = await runFixture([
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'js', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      ...requests,
    ]);
    expect(code).toBe(0);
    const answers = stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { id: number });
    const methods = new Map<number, string>([[1, 'initialize'], ...requests.map((r): [number, string] => [r.id, r.method])]);
    for (const answer of answers) expectValidWire(answer, VERSION, methods.get(answer.id));
    const byId = new Map(answers.map((a) => [a.id, a]));
    expect(byId.get(2)).toEqual({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'Internal error: the tool returned an invalid result' }], isError: true } });
    for (const [id, kind] of [[3, 'resource'], [4, 'resource'], [5, 'prompt']] as const) {
      expect(byId.get(id)).toEqual({ jsonrpc: '2.0', id, error: { code: -32603, message: `Internal error: the ${kind} handler returned an invalid result` } });
    }
    const logged = stderr.split('\n').filter((line) => line.startsWith('mcpkit: '));
    // Requests run concurrently: the lines' order is not the point.
    expect(logged.sort()).toEqual([
      'mcpkit: tool "txt" returned an invalid result: content[0] has type "txt" (expected text, image, audio, resource_link or resource). It returned {"content":[{"type":"txt","value":"x"}]}; the client got an isError result.',
      'mcpkit: resource "test://seven" returned an invalid result: the reader returned a number (7) (expected a string, bytes, a contents object or an array of them). It returned 7; the client got -32603.',
      'mcpkit: resource "test://nothing" returned an invalid result: the reader returned undefined (expected a string, bytes, a contents object or an array of them). It returned undefined; the client got -32603.',
      'mcpkit: prompt "nothing" returned an invalid result: the prompt returned undefined (expected a string, an array of messages or { messages }). It returned undefined; the client got -32603.',
    ].sort());
    expect(stderr).not.toContain('TypeError');
  });
});

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listeningUrl } from '../support/process.js';

// The official MCP Inspector's app probe (`--cli … --app-info`, @modelcontextprotocol/inspector
// 2.12.0) against examples/apps/server.js: it finds each tool's view and reads it.
const root = fileURLToPath(new URL('../..', import.meta.url));
const inspector = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js', import.meta.url));
const run = promisify(execFile);

let example: ChildProcess;
let url: string;
beforeAll(async () => {
  example = spawn(process.execPath, ['examples/apps/server.js'], { cwd: root, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] });
  url = await listeningUrl(example);
});
afterAll(() => {
  example?.kill('SIGTERM');
});

const probe = async (...args: string[]): Promise<unknown[]> => {
  const { stdout } = await run(process.execPath, [inspector, '--cli', url, '--transport', 'http', ...args, '--app-info'], { cwd: root });
  return stdout.trim().split('\n').map((line) => JSON.parse(line) as unknown);
};

describe('the official Inspector app probe', () => {
  it('reports both tools of the example app with their view', async () => {
    const view = { resourceUri: 'ui://apps-example/counter', prefersBorder: true, resourceMimeType: 'text/html;profile=mcp-app' };
    expect(await probe('--method', 'tools/list')).toEqual([
      { hasApp: true, toolName: 'show_counter', ...view },
      { hasApp: true, toolName: 'increment_counter', visibility: ['app'], ...view },
    ]);
    expect(await probe('--method', 'tools/call', '--tool-name', 'show_counter')).toEqual([{ hasApp: true, toolName: 'show_counter', ...view }]);
  });
});

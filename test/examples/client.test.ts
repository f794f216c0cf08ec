/** The client examples, run as a user would, on the built package: stdio against the demo, HTTP in both eras. */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { listeningUrl } from '../support/process.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

describe('client examples', () => {
  it('client-stdio spawns the demo, lists, calls with progress and shuts it down', async () => {
    const { stdout } = await run(process.execPath, ['examples/client-stdio/main.js'], { cwd: root });
    expect(stdout).toMatch(/^connected to mcpkit-everything-server \(2026-07-28, modern\)$/m);
    expect(stdout).toMatch(/^\d+ tools$/m);
    expect(stdout).toContain('progress 50/100');
    expect(stdout).toMatch(/^result: /m);
  }, 30_000);

  it.each(['auto', '2025-11-25'])('client-http answers elicitation, sampling and roots (%s)', async (version) => {
    const server = spawn(process.execPath, ['examples/everything-server/main.js'], { cwd: root, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(server);
    const url = await listeningUrl(server);
    const { stdout } = await run(process.execPath, ['examples/client-http/main.js', url, version], { cwd: root });
    expect(stdout).toContain(version === 'auto' ? '(2026-07-28, modern)' : '(2025-11-25, legacy)');
    expect(stdout).toContain('test_input_required_result_elicitation: Hello, Ada!');
    expect(stdout).toContain('test_input_required_result_sampling: The model said: Paris');
    expect(stdout).toContain('test_input_required_result_list_roots: Found 1 root(s)');
  }, 30_000);
});

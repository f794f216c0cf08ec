/**
 * @opentelemetry/api is an optional peer dependency: only `mcpkit/otel` may
 * load it. Each public entry (built dist/) is imported in a process where any
 * @opentelemetry import fails.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const deny = fileURLToPath(new URL('./fixtures/deny-otel.mjs', import.meta.url));

async function importIn(entry: string): Promise<{ ok: boolean; output: string }> {
  const script = `await import(${JSON.stringify(`mcpkit${entry}`)}); console.log('loaded');`;
  try {
    const { stdout } = await run(process.execPath, ['--import', deny, '--input-type=module', '-e', script], { cwd: root });
    return { ok: stdout.includes('loaded'), output: stdout };
  } catch (error) {
    return { ok: false, output: String((error as { stderr?: string }).stderr ?? error) };
  }
}

describe('the optional @opentelemetry/api peer', () => {
  it.each(['', '/stdio', '/http', '/express', '/testing'])('mcpkit%s never imports it', async (entry) => {
    const { ok, output } = await importIn(entry);
    expect(output).not.toMatch(/@opentelemetry/);
    expect(ok).toBe(true);
  });

  it('mcpkit/otel does (so the check above would see it)', async () => {
    const { ok, output } = await importIn('/otel');
    expect(ok).toBe(false);
    // dist/otel.js: the bundled entry (scripts/bundle.mjs) that holds mcpkit/otel's own code.
    expect(output).toMatch(/dist\/otel\.js imports @opentelemetry\/api/);
  });
});

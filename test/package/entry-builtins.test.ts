/**
 * `import 'mcpkit'` and `import 'mcpkit/stdio'` do not load node:http: a stdio server never serves
 * HTTP, and node:http (with net and the http client) is a few ms of its cold start. The build puts
 * the code two entries share in one chunk (scripts/bundle.mjs), the node:http adapter included, so
 * the adapter loads node:http when it makes a server (listen), not when it is imported. Nor do they
 * load node:crypto before something hashes.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

/** The node: builtins a fresh process loads for `import(specifier)` (then `then`, if given), from process.moduleLoadList. */
async function builtinsLoadedBy(specifier: string, then = ''): Promise<string[]> {
  const script = [
    'const before = new Set(process.moduleLoadList);',
    `const m = await import(${JSON.stringify(specifier)});`,
    then,
    "console.log(JSON.stringify(process.moduleLoadList.filter((x) => !before.has(x) && x.startsWith('NativeModule ')).map((x) => x.slice(13))));",
  ].join('\n');
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: root });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as string[];
}

describe('builtins an entry loads', () => {
  it.each(['mcpkit', 'mcpkit/stdio', 'mcpkit/client'])('%s does not load node:http', async (specifier) => {
    expect(await builtinsLoadedBy(specifier)).not.toContain('http');
  });

  // node:crypto (some twenty internal modules) is looked up when something first hashes (src/util/crypto.ts).
  it.each(['mcpkit', 'mcpkit/stdio'])('%s does not load node:crypto until something hashes', async (specifier) => {
    expect(await builtinsLoadedBy(specifier)).not.toContain('crypto');
  });

  it('mcpkit/http loads it when listen() makes a server', async () => {
    const listened = "const { McpServer } = await import('mcpkit'); const l = await m.listen(new McpServer({ name: 'x', version: '1' })); await l.close();";
    expect(await builtinsLoadedBy('mcpkit/http', listened)).toContain('http');
  });
});

/**
 * `mcpkit dev`'s watcher. On Linux, Node 20's recursive fs.watch stops reporting a file once a
 * save replaced it (sed -i, an editor's atomic save): the dev server then never reloaded again.
 */
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { watchPaths } from '../../src/cli/dev/watch.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function setup(): { dir: string; batches: string[][]; next: () => Promise<string[]> } {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-watch-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const batches: string[][] = [];
  let wake: (() => void) | undefined;
  const stop = watchPaths([dir], (files) => {
    batches.push(files);
    wake?.();
  }, 30);
  cleanups.unshift(stop);
  const next = async (): Promise<string[]> => {
    const seen = batches.length;
    await new Promise<void>((resolve, reject) => {
      const timeout = setTimeout(() => reject(new Error('no change reported within 3 s')), 3_000);
      wake = () => {
        if (batches.length > seen) {
          clearTimeout(timeout);
          resolve();
        }
      };
    });
    return batches[batches.length - 1]!;
  };
  return { dir, batches, next };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

it('keeps reporting a file after a save that replaced it (rename over it)', async () => {
  const { dir, next } = setup();
  const file = join(dir, 'server.js');
  writeFileSync(file, 'a');
  await settle();
  const replaced = next();
  writeFileSync(join(dir, '.server.js.tmp'), 'b');
  renameSync(join(dir, '.server.js.tmp'), file);
  expect(await replaced).toContain(file);
  await settle();
  const appended = next();
  appendFileSync(file, '// edited in place');
  expect(await appended).toEqual([file]);
});

it('watches folders created after it started, and ignores node_modules', async () => {
  const { dir, next, batches } = setup();
  mkdirSync(join(dir, 'node_modules'));
  mkdirSync(join(dir, 'lib'));
  await settle();
  batches.length = 0;
  writeFileSync(join(dir, 'node_modules', 'x.js'), 'x');
  const changed = next();
  writeFileSync(join(dir, 'lib', 'tool.js'), 'x');
  expect(await changed).toEqual([join(dir, 'lib', 'tool.js')]);
});

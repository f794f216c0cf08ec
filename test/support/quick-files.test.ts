/**
 * `npm run test:quick` runs without dist/ (a fresh clone has none): a file that needs the build,
 * directly or through what it imports, must be left to `npm test`. These are files that once
 * slipped into the quick set and failed on a fresh clone, one per way of needing the build.
 */
import { describe, expect, it } from 'vitest';
import { allTestFiles, quickFiles } from './quick-files.js';

const needy = {
  'imports an example, which imports the package by name': 'test/client/http-request.test.ts',
  'spawns through a stdio transport (`command:`)': 'test/client/demo.test.ts',
  'spawns an .mjs fixture': 'test/gateway/shared.test.ts',
  'imports an .mjs fixture': 'test/interop/modern.test.ts',
  'runs doc snippets that import the package by name': 'test/apps/docs.test.ts',
  'imports the built entries by name': 'test/package/entry-builtins.test.ts',
};

describe('the quick set', () => {
  const quick = new Set(quickFiles());
  it.each(Object.entries(needy))('leaves out a file that %s', (_why, file) => {
    expect(allTestFiles()).toContain(file);
    expect(quick.has(file)).toBe(false);
  });

  it('still holds the in-process files', () => {
    expect(quick.has('test/support/quick-files.test.ts')).toBe(true);
    expect(quick.size).toBeGreaterThan(100);
  });
});

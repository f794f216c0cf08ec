import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import type { TestUserConfig } from 'vitest/config';
import { allTestFiles, quickFiles } from './test/support/quick-files.js';

/** What every run shares (npm test's two projects and npm run test:quick). */
export const shared = {
  testTimeout: 20_000,
  hookTimeout: 20_000,
  pool: 'forks',
  // Vitest's default is cores - 1: one worker on a 2-core machine, so every file waited for the one
  // before it while most of them wait on child processes, servers and npm. Two more files run while one waits.
  maxWorkers: availableParallelism() + 1,
  // Many tests provoke errors on purpose and the server logs them: show a test's console output only
  // when it fails, so the output of a green run is the summary and a failure stands out with its logs.
  silent: 'passed-only',
} satisfies TestUserConfig;

const quick = quickFiles();
const quickSet = new Set(quick);

export default defineConfig({
  test: {
    ...shared,
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      // The in-process files share one process per worker: importing src/ and the SDKs again for
      // each of them in a fresh process took most of their time (113 s isolated, 41 s shared, same files).
      { extends: true, test: { name: 'quick', include: quick, isolate: false } },
      // The files that spawn processes, start Redis or Chromium, or read dist/ keep a fresh process each.
      { extends: true, test: { name: 'isolated', include: allTestFiles().filter((file) => !quickSet.has(file)) } },
    ],
  },
});

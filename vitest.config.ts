import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import type { TestUserConfig } from 'vitest/config';
import { allTestFiles } from './test/support/quick-files.js';

/** What every run shares (npm test's and npm run test:quick's). */
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

export default defineConfig({
  test: {
    ...shared,
    globalSetup: ['test/support/global-setup.ts'],
    include: allTestFiles(),
    // Every file shares one process per worker (test:quick's in-process files and those that spawn
    // processes, start Redis or Chromium, or read dist/ alike): importing src/ and the SDKs again in a
    // fresh process for each file was most of the in-process files' time (113 s isolated, 41 s shared),
    // and 0.4-1.9 CPU-s before the first test of each spawning file, ~50 CPU-s over 65 files of a
    // CPU-bound run. A file must not leave global state behind (no file mocks modules or fakes timers).
    isolate: false,
  },
});

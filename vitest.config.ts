import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Vitest's default is cores - 1: one worker on a 2-core machine, so every file waited for the one
    // before it while most of them wait on child processes, servers and npm. Two more files run while one waits.
    maxWorkers: availableParallelism() + 1,
    // Many tests provoke errors on purpose and the server logs them: show a test's console output only
    // when it fails, so the output of a green run is the summary and a failure stands out with its logs.
    silent: 'passed-only',
  },
});

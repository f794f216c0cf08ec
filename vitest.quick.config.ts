/**
 * `npm run test:quick`: the edit loop. The test files that work in their own
 * process only (test/support/quick-files.ts says how they are chosen), without
 * the global setup (no build, no install). `npm test` still runs everything.
 */
import { defineConfig } from 'vitest/config';
import { quickFiles } from './test/support/quick-files.js';
import { shared } from './vitest.config.js';

export default defineConfig({
  test: {
    ...shared,
    include: quickFiles(),
    // Nothing here needs dist/ or redis-server: no build, no install.
    globalSetup: [],
    // Most of a quick file's time is importing src/ and the SDKs again in a fresh process: one
    // process per worker keeps them loaded (as the "quick" project of npm test does).
    isolate: false,
  },
});

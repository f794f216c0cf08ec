#!/usr/bin/env node
// The `mcpkit` command. Loads the compiled CLI only now, so `import 'mcpkit'` never does.
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  console.error('mcpkit: dist/ is missing; this checkout was never built. Run `npm run build` (or `npm ci`) in the mcpkit folder.');
  process.exit(5);
}
const { main: run } = await import(main.href);
process.exitCode = await run(process.argv.slice(2));

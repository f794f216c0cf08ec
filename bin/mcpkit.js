#!/usr/bin/env node
// The `mcpkit` command. Loads the compiled CLI only now, so `import 'mcpkit'` never does.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  // A folder install (npm install ../mcpkit) links the checkout as it is: no install script builds it.
  const folder = fileURLToPath(new URL('..', import.meta.url));
  console.error(`mcpkit: ${folder} was never built (dist/ is missing). Run \`npm ci && npm run build\` there, or install a tarball made there with \`npm pack\`.`);
  process.exit(5);
}
const { main: run } = await import(main.href);
process.exitCode = await run(process.argv.slice(2));

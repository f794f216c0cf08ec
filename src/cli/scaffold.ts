/** The files `mcpkit init` writes: a small TypeScript server project. */
import { typeStripping } from './target.js';

export interface ScaffoldOptions {
  name: string;
  /** The mcpkit dependency spec (a version range, or file:…). */
  mcpkit: string;
  /** mcpkit's own devDependencies, for the versions of zod, TypeScript and @types/node it is tested with. */
  devDependencies: Record<string, string>;
  /** The Node the project is made on: without type stripping (Node 20) its scripts run the compiled dist/. */
  nodeVersion?: string;
}

const caret = (version: string | undefined, fallback: string): string => (version ? `^${version.replace(/^[\^~]/, '')}` : fallback);

export function projectFiles({ name, mcpkit, devDependencies, nodeVersion = process.versions.node }: ScaffoldOptions): Record<string, string> {
  const runsTs = typeStripping(nodeVersion) !== false;
  // A Node without type stripping exits 5 on `mcpkit dev src/server.ts`: serve the compiled file, which
  // `npm run watch` keeps current (mcpkit dev reloads on each change tsc writes).
  const entry = runsTs ? 'src/server.ts' : 'dist/server.js';
  const scripts = runsTs
    ? { build: 'tsc', dev: 'mcpkit dev src/server.ts', start: 'node dist/stdio.js', test: 'tsc && node --test dist/*.test.js' }
    : { build: 'tsc', dev: 'tsc && mcpkit dev dist/server.js', watch: 'tsc --watch --preserveWatchOutput', start: 'node dist/stdio.js', test: 'tsc && node --test dist/*.test.js' };
  const pkg = {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts,
    engines: { node: '^20.19.0 || >=22.12.0' },
    dependencies: { mcpkit, zod: caret(devDependencies['zod'], '^4.2.0') },
    devDependencies: {
      '@types/node': caret(devDependencies['@types/node'], '^20.19.0'),
      typescript: caret(devDependencies['typescript'], '^5.9.0'),
    },
  };
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      skipLibCheck: true,
      types: ['node'],
      rootDir: 'src',
      outDir: 'dist',
    },
    include: ['src'],
  };
  return {
    'package.json': `${JSON.stringify(pkg, null, 2)}\n`,
    'tsconfig.json': `${JSON.stringify(tsconfig, null, 2)}\n`,
    '.gitignore': 'node_modules/\ndist/\n',
    'src/server.ts': `import { McpServer } from 'mcpkit';
import { z } from 'zod';

// The server: tools, resources and prompts. \`mcpkit dev\`, \`mcpkit call\` and
// \`mcpkit inspect\` load it from this export; src/stdio.ts serves it.
export const server = new McpServer({ name: '${name}', version: '0.1.0' });

server.tool('greet', {
  description: 'Greets someone by name',
  input: z.object({ name: z.string().describe('Who to greet') }),
  annotations: { readOnlyHint: true },
}, async ({ name }) => \`Hello, \${name}!\`);
`,
    'src/stdio.ts': `import { StdioTransport } from 'mcpkit';
import { server } from './server.js';

// On stdio, stdout carries the protocol: never write to process.stdout (mcpkit sends console.log to stderr).
await server.connect(new StdioTransport());
console.error('${name} on stdio');
`,
    'src/server.test.ts': `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestClient } from 'mcpkit/testing';
import { server } from './server.js';

test('greet says hello', async () => {
  const client = createTestClient(server);
  await client.initialize();
  const result = await client.callTool('greet', { name: 'Ada' });
  assert.deepEqual(result.content, [{ type: 'text', text: 'Hello, Ada!' }]);
  client.close();
});

test('greet refuses a call without a name', async () => {
  const client = createTestClient(server);
  await client.initialize();
  const result = await client.callTool('greet', {});
  assert.equal(result.isError, true);
  client.close();
});
`,
    'README.md': `# ${name}

An MCP server built with [mcpkit](https://www.npmjs.com/package/mcpkit).

\`\`\`bash
npm test                                   # compile, then run src/server.test.ts
npm run dev                                # HTTP on http://127.0.0.1:3000/mcp, reload on change${runsTs ? '' : `
npm run watch                              # in another terminal: recompiles dist/ on each save`}
npx mcpkit call ${entry} greet name=Ada
npx mcpkit config claude-desktop ${entry}
\`\`\`

${runsTs
  ? `\`npm run dev\` and the \`.ts\` paths need Node ≥ 22.6 (type stripping). On Node 20, build first
(\`npm run build\`) and use \`dist/server.js\` instead, e.g. \`npx mcpkit dev dist/server.js\` with
\`npx tsc --watch\` in another terminal.`
  : `This project was made on Node ${nodeVersion}, which cannot run \`.ts\` files, so its commands use the
compiled \`dist/server.js\`: \`npm run dev\` compiles once and serves it, \`npm run watch\` recompiles on each
save and \`mcpkit dev\` reloads. On Node ≥ 22.6 \`npx mcpkit dev src/server.ts\` runs the source directly.`}

Clients that spawn the server over stdio run \`node dist/stdio.js\` (after \`npm run build\`). On
stdio, stdout carries the protocol: never write to \`process.stdout\`; log with \`console.error\`.
`,
  };
}

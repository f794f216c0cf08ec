/** The files `mcpkit init` writes: a small TypeScript server project. */

export interface ScaffoldOptions {
  name: string;
  /** The mcpkit dependency spec (a version range, or file:…). */
  mcpkit: string;
  /** mcpkit's own devDependencies, for the versions of zod, TypeScript and @types/node it is tested with. */
  devDependencies: Record<string, string>;
}

const caret = (version: string | undefined, fallback: string): string => (version ? `^${version.replace(/^[\^~]/, '')}` : fallback);

export function projectFiles({ name, mcpkit, devDependencies }: ScaffoldOptions): Record<string, string> {
  const pkg = {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: {
      build: 'tsc',
      dev: 'mcpkit dev src/server.ts',
      start: 'node dist/stdio.js',
      test: 'tsc && node --test dist/*.test.js',
    },
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
npm run dev                                # HTTP on http://127.0.0.1:3000/mcp, reload on change
npx mcpkit call src/server.ts greet name=Ada
npx mcpkit config claude-desktop src/server.ts
\`\`\`

\`npm run dev\` and the \`.ts\` paths need Node ≥ 22.6 (type stripping). On Node 20, build first
(\`npm run build\`) and use \`dist/server.js\` instead, e.g. \`npx mcpkit dev dist/server.js\` with
\`npx tsc --watch\` in another terminal.

Clients that spawn the server over stdio run \`node dist/stdio.js\` (after \`npm run build\`). On
stdio, stdout carries the protocol: never write to \`process.stdout\`; log with \`console.error\`.
`,
  };
}

#!/usr/bin/env node
// `node examples/skills/server.js` serves the skills in ./skills (one folder per skill) over
// Streamable HTTP on http://127.0.0.1:3000/mcp (PORT overrides), for every revision, and
// reloads a skill when its files change. Run `npm run build` first: `mcpkit` resolves to dist/.
import { fileURLToPath } from 'node:url';
import { McpServer } from 'mcpkit';
import { listen } from 'mcpkit/http';

const server = new McpServer({
  name: 'skills-example',
  version: '1.0.0',
  instructions: 'Skills: call skills/list, then load skill://commit-messages/SKILL.md when writing a commit message.',
});

// skill://commit-messages/SKILL.md and skill://commit-messages/references/EXAMPLES.md
server.skills(fileURLToPath(new URL('./skills', import.meta.url)), { directoryRead: true, watch: true });

const listener = await listen(server, { port: Number(process.env.PORT ?? 3000) });
console.error(`skills example listening on ${listener.url}`);
const stop = async () => {
  await listener.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

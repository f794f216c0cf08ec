import { fileURLToPath } from 'node:url';
import { McpServer } from 'mcpkit';
import { registerInputRequiredTools } from './input-required.js';
import { registerChangeTriggers, registerPrompts, registerResources } from './resources-prompts.js';
import { registerTaskTools } from './tasks.js';
import { registerBasicTools, registerClientRequestTools } from './tools.js';

/**
 * The "everything" server: every fixture the official conformance suite
 * expects, on one McpServer that serves legacy and 2026-07-28 clients alike.
 */
export function createEverythingServer(options = {}) {
  const server = new McpServer({
    name: 'mcpkit-everything-server',
    version: '0.1.0',
    instructions: 'A demo server exposing every MCP capability mcpkit supports.',
    ...options,
  });
  registerBasicTools(server);
  registerClientRequestTools(server);
  registerInputRequiredTools(server);
  registerChangeTriggers(server);
  registerResources(server);
  registerPrompts(server);
  registerTaskTools(server);
  // One Agent Skill (SEP-2640): skill://server-tour/SKILL.md and its references/ folder.
  server.skills(fileURLToPath(new URL('./skills', import.meta.url)), { directoryRead: true });
  return server;
}

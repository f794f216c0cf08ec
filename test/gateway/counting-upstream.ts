/** A legacy HTTP upstream (so there is an upstream session to end) that counts the sessions ended on it. */
import { McpServer } from '../../src/index.js';
import { listen } from '../../src/adapters/node.js';
import { LEGACY } from '../support/revisions.js';

/** Starts it on a free port; `cleanup` gets its close. */
export async function countingUpstream(cleanup: (() => Promise<unknown>)[]): Promise<{ url: string; closed: () => number }> {
  const server = new McpServer({ name: 'up', version: '1.0.0', protocolVersions: [LEGACY] });
  server.tool('echo', { description: 'echo' }, () => 'echo');
  let closed = 0;
  server.onSessionClosed(() => void closed++);
  const listener = await listen(server, { port: 0 });
  cleanup.push(() => listener.close());
  return { url: listener.url, closed: () => closed };
}

/**
 * An MCP endpoint over raw HTTP/1.1 that answers the handshake and lists and never answers
 * `tools/call`: what the tests of abandoned requests (timed out, aborted) talk to.
 */
import { ok, Raw } from './raw-http.js';

export interface SilentServer {
  url: string;
  /** Connections open now. */
  open(): number;
  /** The `requestId` of each `notifications/cancelled`, in order. */
  cancelled: unknown[];
  /** `tools/call` requests received, and how many of their connections have closed since. */
  calls(): number;
  callsClosed(): number;
  close(): Promise<void>;
}

export async function silentOnCalls(version: string): Promise<SilentServer> {
  const cancelled: unknown[] = [];
  let calls = 0;
  let callsClosed = 0;
  const raw = new Raw((request) => {
    const { socket } = request;
    if (request.method !== 'POST') return void socket.write('HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 0\r\n\r\n');
    const message = JSON.parse(request.body) as { id?: number; method: string; params?: { requestId?: unknown } };
    const reply = (result: unknown): void => void socket.write(ok(JSON.stringify({ jsonrpc: '2.0', id: message.id, result })));
    const serverInfo = { name: 'silent', version: '1.0.0' };
    if (message.id === undefined) {
      if (message.method === 'notifications/cancelled') cancelled.push(message.params?.requestId);
      socket.write('HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n');
    } else if (message.method === 'initialize') reply({ protocolVersion: version, capabilities: { tools: {} }, serverInfo });
    else if (message.method === 'server/discover') reply({ supportedVersions: [version], capabilities: { tools: {} }, serverInfo });
    else if (message.method === 'tools/list') reply({ tools: [] });
    else {
      // tools/call: never answered; its exchange ends when the client closes the socket.
      calls += 1;
      socket.once('close', () => (callsClosed += 1));
    }
  });
  await raw.start();
  return { url: raw.url('/mcp').href, open: () => raw.open.size, cancelled, calls: () => calls, callsClosed: () => callsClosed, close: () => raw.close() };
}

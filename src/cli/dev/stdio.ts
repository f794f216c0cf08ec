/**
 * `mcpkit dev --stdio`: a supervisor between the client and the server child.
 * The client's pipe stays open across reloads: the supervisor starts a new
 * child, replays the handshake the client made (initialize, initialized, the
 * log level, resource subscriptions, 2026-07-28 listen streams), swaps, stops
 * the old child, answers the requests the old child left unanswered with an
 * error, and tells the client that its lists changed. While no version runs (the first start failed,
 * or the process exited), each request is answered at once with an error that says why, so a client
 * never waits on a server that is not there; the next save that starts cleanly serves again.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { HOST } from '../target.js';

type Json = Record<string, unknown>;
type Id = string | number;

const INTERNAL = 'mcpkit-dev:';
const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

interface Child {
  process: ChildProcessByStdio<Writable, Readable, Readable>;
  /** The last of its stderr (it is passed on as it comes): why it failed to start. */
  stderr: string;
  /** Requests this child sent to the client and that are not answered yet. */
  asked: Set<Id>;
  /** Answers to the supervisor's own requests. */
  internal: Map<string, (message: Json) => void>;
}

export interface DevStdio {
  reload(): Promise<boolean>;
  close(): void;
}

export function devStdio(entry: string, flags: string[], log: (line: string) => void, onEnd: () => void): DevStdio {
  const write = (message: Json) => process.stdout.write(`${JSON.stringify(message)}\n`);
  let current: Child | undefined;
  let queue: string[] | undefined = []; // client lines held while no child is ready
  let initialize: Json | undefined;
  let initialized = false;
  let capabilities: Json = {};
  let level: Json | undefined;
  const subscriptions = new Set<string>();
  const listens = new Map<Id, Json>(); // 2026-07-28 subscriptions/listen requests, replayed on reload
  const inFlight = new Map<Id, string>(); // client requests the current child has not answered
  let internalId = 0;
  let closing = false;
  let down: string | undefined; // why no version is serving, once a start failed or the process exited

  /** The end of a child's stderr, for the error a client reads. */
  const lastLines = (stderr: string): string => {
    const tail = stderr.trimEnd().split('\n').slice(-6).join('\n');
    return tail === '' ? '' : `; its stderr:\n${tail}`;
  };

  function spawnChild(): Child {
    const child: Child = {
      process: spawn(process.execPath, [...flags, HOST, entry], { stdio: ['pipe', 'pipe', 'pipe'] }),
      stderr: '',
      asked: new Set(),
      internal: new Map(),
    };
    child.process.stdin.on('error', () => {});
    child.process.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      process.stderr.write(chunk);
      child.stderr = (child.stderr + chunk).slice(-2000);
    });
    let partial = '';
    child.process.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) fromChild(child, line);
    });
    return child;
  }

  function fromChild(child: Child, line: string): void {
    let message: Json;
    try {
      message = JSON.parse(line) as Json;
    } catch {
      log(`the server wrote a line that is not JSON on stdout (dropped; log with console.error): ${line.slice(0, 200)}`);
      return;
    }
    const id = message['id'] as Id | undefined;
    if (typeof id === 'string' && id.startsWith(INTERNAL)) {
      child.internal.get(id)?.(message);
      child.internal.delete(id);
      return;
    }
    if (child !== current) return;
    if (typeof message['method'] === 'string') {
      if (id !== undefined) child.asked.add(id);
    } else if (id !== undefined) {
      inFlight.delete(id);
      if (initialize && id === initialize['id'] && message['result']) capabilities = ((message['result'] as Json)['capabilities'] ?? {}) as Json;
    }
    process.stdout.write(`${line}\n`);
  }

  function toChild(line: string): void {
    let message: Json | undefined;
    try {
      message = JSON.parse(line) as Json;
    } catch {
      // Not JSON: the server answers it with a parse error.
    }
    if (message && !Array.isArray(message)) {
      const { id, method } = message as { id?: Id; method?: string };
      const params = (message['params'] ?? {}) as Json;
      if (method === undefined && id !== undefined && current && !current.asked.delete(id)) return; // an answer to a request of a stopped child
      if (method !== undefined && id !== undefined) inFlight.set(id, method);
      if (method === 'initialize') initialize = message;
      else if (method === 'notifications/initialized') initialized = true;
      else if (method === 'logging/setLevel') level = params;
      else if (method === 'resources/subscribe' && typeof params['uri'] === 'string') subscriptions.add(params['uri']);
      else if (method === 'resources/unsubscribe' && typeof params['uri'] === 'string') subscriptions.delete(params['uri']);
      else if (method === 'subscriptions/listen' && id !== undefined) listens.set(id, message);
    }
    current?.process.stdin.write(`${line}\n`);
  }

  /** Sends one of the supervisor's own requests to `child`; resolves with the answer, rejects if it exits first. */
  function ask(child: Child, method: string, params: Json): Promise<Json> {
    const id = `${INTERNAL}${++internalId}`;
    return new Promise((resolve, reject) => {
      const exited = () => reject(new Error('the server exited while starting'));
      child.process.once('exit', exited);
      child.internal.set(id, (answer) => {
        child.process.off('exit', exited);
        resolve(answer);
      });
      child.process.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  async function handshake(child: Child): Promise<void> {
    if (!initialize) {
      await ask(child, 'server/discover', { _meta: MODERN_META }); // any answer means it runs
      return;
    }
    const answer = await ask(child, 'initialize', (initialize['params'] ?? {}) as Json);
    if (answer['error']) throw new Error(`initialize failed: ${JSON.stringify(answer['error'])}`);
    capabilities = ((answer['result'] as Json)['capabilities'] ?? {}) as Json;
    if (initialized) child.process.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    if (level) await ask(child, 'logging/setLevel', level);
    for (const uri of subscriptions) await ask(child, 'resources/subscribe', { uri });
  }

  async function reload(): Promise<boolean> {
    if (!current) queue ??= []; // hold what the client sends while this start is tried
    const next = spawnChild();
    try {
      await handshake(next);
    } catch (error) {
      next.process.kill('SIGKILL');
      log(`${(error as Error).message}${current ? '; the previous version keeps serving' : '; save a change to retry'}`);
      if (!current) stayDown(`${(error as Error).message}${lastLines(next.stderr)}`);
      return false;
    }
    down = undefined;
    const previous = current;
    current = next;
    next.process.once('exit', (code, signal) => {
      if (current !== next || closing) return;
      current = undefined;
      failInFlight('the server exited while handling');
      stayDown(`the server exited (${signal ?? `code ${code}`})${lastLines(next.stderr)}`);
      log(`the server exited (${signal ?? `code ${code}`}); save a change to restart it`);
    });
    if (previous) {
      previous.process.kill('SIGTERM');
      failInFlight('the server reloaded while handling');
      for (const listen of listens.values()) next.process.stdin.write(`${JSON.stringify(listen)}\n`);
      announceChanges();
    }
    for (const line of queue ?? []) toChild(line);
    queue = undefined;
    return true;
  }

  /** No version serves: what the client sent while one was tried, and what it sends from now on, is refused. */
  function stayDown(why: string): void {
    down = why;
    const held = queue ?? [];
    queue = undefined;
    for (const line of held) refuse(line);
  }

  function refuse(line: string): void {
    let message: Json | undefined;
    try {
      message = JSON.parse(line) as Json;
    } catch {
      return;
    }
    for (const m of Array.isArray(message) ? (message as Json[]) : [message]) {
      if (m === null || typeof m !== 'object' || typeof m['method'] !== 'string' || m['id'] === undefined) continue;
      const why = `mcpkit dev: the server is not running: ${down ?? 'it has not started'}. Fix it and save (mcpkit dev starts it again), then send ${m['method']} again`;
      write({ jsonrpc: '2.0', id: m['id'], error: { code: -32603, message: why } });
    }
  }

  /** Answers the client's unanswered requests (listen streams excepted: they are replayed). */
  function failInFlight(why: string): void {
    for (const [id, method] of inFlight) {
      if (listens.has(id)) continue;
      write({ jsonrpc: '2.0', id, error: { code: -32603, message: `mcpkit dev: ${why} ${method}; send it again` } });
      inFlight.delete(id);
    }
  }

  /** list_changed for every list the client may hold: on the session (legacy) and on each listen stream (2026-07-28). */
  function announceChanges(): void {
    const lists = [['tools', 'toolsListChanged'], ['prompts', 'promptsListChanged'], ['resources', 'resourcesListChanged']] as const;
    if (initialize) {
      for (const [list] of lists) if (capabilities[list] !== undefined) write({ jsonrpc: '2.0', method: `notifications/${list}/list_changed` });
    }
    for (const [id, listen] of listens) {
      const wanted = (((listen['params'] ?? {}) as Json)['notifications'] ?? {}) as Json;
      for (const [list, flag] of lists) {
        if (wanted[flag] === true) write({ jsonrpc: '2.0', method: `notifications/${list}/list_changed`, params: { _meta: { 'io.modelcontextprotocol/subscriptionId': id } } });
      }
    }
  }

  let partial = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      if (queue) queue.push(line);
      else if (!current) refuse(line);
      else toChild(line);
    }
  });
  process.stdin.once('end', onEnd);

  return {
    reload,
    close() {
      closing = true;
      current?.process.stdin.end();
      current?.process.kill('SIGTERM');
    },
  };
}

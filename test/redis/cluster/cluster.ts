/**
 * The test cluster: three mcpkit processes (test/redis/cluster/instance.mjs)
 * on one private redis-server, behind the round-robin proxy; or, for the
 * negative control, the same three with memory stores. Raw HTTP helpers that
 * read JSON and SSE answers, and an SSE reader for streams left open.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startProxy, type Proxy } from './proxy.js';

const INSTANCE = fileURLToPath(new URL('./instance.mjs', import.meta.url));
export const LEGACY = '2025-11-25';
export const MODERN = '2026-07-28';

type Json = Record<string, unknown>;

interface Instance {
  child: ChildProcess | undefined;
  port: number;
  output: string;
}

export interface Cluster {
  readonly proxy: Proxy;
  readonly url: string;
  readonly mode: 'redis' | 'memory';
  /** Kills instance `index` (SIGKILL by default: a crash). */
  kill(index: number, signal?: NodeJS.Signals): Promise<void>;
  /** True while instance `index` is the process it started as (it neither crashed nor was killed). */
  alive(index: number): boolean;
  /** Starts instance `index` again (same name, new port) after `kill`. */
  restart(index: number): Promise<void>;
  output(index: number): string;
  close(): Promise<void>;
}

export async function startCluster(mode: 'redis' | 'memory', redisUrl: string | undefined, env: Record<string, string> = {}): Promise<Cluster> {
  const names = ['a', 'b', 'c'];
  const instances = await Promise.all(names.map((name) => spawnInstance(name, mode, redisUrl, env)));
  const proxy = await startProxy(() => instances.map((i) => i.port));
  const kill = async (index: number, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> => {
    const child = instances[index]!.child;
    // A killed child has a signalCode and no exitCode.
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  };
  return {
    proxy,
    url: proxy.url,
    mode,
    output: (index) => instances[index]!.output,
    alive: (index) => instances[index]!.child?.exitCode === null && instances[index]!.child?.signalCode === null,
    kill,
    async restart(index) {
      await kill(index);
      instances[index] = await spawnInstance(names[index]!, mode, redisUrl, env);
    },
    async close() {
      await proxy.close();
      await Promise.all(instances.map((_, index) => kill(index)));
    },
  };
}

function spawnInstance(name: string, mode: string, redisUrl: string | undefined, env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, [INSTANCE], {
    env: { ...process.env, INSTANCE_ID: name, STATE: mode, ...(redisUrl === undefined ? {} : { REDIS_URL: redisUrl }), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const instance: Instance = { child, port: 0, output: '' };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance ${name} did not start:\n${instance.output}`)), 20_000);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (instance.output += chunk));
    child.stdout.on('data', (chunk: string) => {
      instance.output += chunk;
      const ready = /READY (\d+)/.exec(instance.output);
      if (ready !== null && instance.port === 0) {
        instance.port = Number(ready[1]);
        clearTimeout(timer);
        resolve(instance);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (instance.port === 0) reject(new Error(`instance ${name} exited with ${code}:\n${instance.output}`));
    });
  });
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  messages: Json[];
  servedBy: number;
}

export interface PostOptions {
  session?: string | undefined;
  pin?: number;
  version?: string;
  headers?: Record<string, string>;
}

export async function post(url: string, body: unknown, options: PostOptions = {}): Promise<Answer> {
  const response = await fetch(url, { method: 'POST', headers: postHeaders(options), body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, messages: parseMessages(text, response.headers.get('content-type') ?? ''), servedBy: Number(response.headers.get('x-served-by')) };
}

function postHeaders(options: PostOptions): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...options.headers };
  if (options.version !== undefined) headers['mcp-protocol-version'] = options.version;
  if (options.session !== undefined) headers['mcp-session-id'] = options.session;
  if (options.pin !== undefined) headers['x-pin'] = String(options.pin);
  return headers;
}

export function parseMessages(text: string, contentType: string): Json[] {
  if (text === '') return [];
  if (!contentType.startsWith('text/event-stream')) return [JSON.parse(text) as Json];
  const out: Json[] = [];
  for (const block of text.split('\n\n')) {
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data !== '') out.push(JSON.parse(data) as Json);
  }
  return out;
}

/** A legacy session: initialize (pinned or balanced) and notifications/initialized. */
export async function initialize(url: string, pin?: number, capabilities: Json = { elicitation: {} }): Promise<{ session: string; answer: Answer }> {
  const answer = await post(
    url,
    { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LEGACY, capabilities, clientInfo: { name: 'cluster-test', version: '1.0.0' } } },
    pin === undefined ? {} : { pin },
  );
  const session = answer.headers.get('mcp-session-id');
  if (answer.status !== 200 || session === null) throw new Error(`initialize failed: ${answer.status} ${answer.text}`);
  const initialized = await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { session, version: LEGACY });
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status} ${initialized.text}`);
  return { session, answer };
}

/** An SSE response read as it arrives. */
export class SseReader {
  readonly messages: Json[] = [];
  readonly raw: string[] = [];
  ended = false;
  status = 0;
  servedBy = -1;
  #buffer = '';
  #waiters = new Set<() => void>();
  readonly #controller = new AbortController();

  static async open(url: string, init: RequestInit): Promise<SseReader> {
    const reader = new SseReader();
    const response = await fetch(url, { ...init, signal: reader.#controller.signal });
    reader.status = response.status;
    reader.servedBy = Number(response.headers.get('x-served-by'));
    if (response.body === null || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      reader.raw.push(await response.text());
      reader.ended = true;
      return reader;
    }
    void reader.#pump(response.body);
    return reader;
  }

  async #pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body) {
        this.#buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = this.#buffer.indexOf('\n\n')) >= 0) {
          const block = this.#buffer.slice(0, end);
          this.#buffer = this.#buffer.slice(end + 2);
          this.raw.push(block);
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).replace(/^ /, ''))
            .join('\n');
          if (data !== '') this.messages.push(JSON.parse(data) as Json);
          this.#wake();
        }
      }
    } catch {
      // aborted
    }
    this.ended = true;
    this.#wake();
  }

  #wake(): void {
    for (const waiter of this.#waiters) waiter();
  }

  /** Waits for a message matching `match` (or the end of the stream); fails after `timeoutMs`. */
  async next(match: (message: Json) => boolean, timeoutMs = 5_000): Promise<Json> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(match);
      if (found !== undefined) return found;
      if (this.ended) throw new Error(`stream ended without the expected message; got ${JSON.stringify(this.messages)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no expected message within ${timeoutMs} ms; got ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        const waiter = (): void => {
          this.#waiters.delete(waiter);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(waiter, left);
        this.#waiters.add(waiter);
      });
    }
  }

  /** Waits until the stream ends; fails after `timeoutMs`. */
  async end(timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) {
      if (Date.now() > deadline) throw new Error(`stream still open after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  close(): void {
    this.#controller.abort();
  }
}

export function streamPost(url: string, body: unknown, options: PostOptions = {}): Promise<SseReader> {
  return SseReader.open(url, { method: 'POST', headers: postHeaders(options), body: JSON.stringify(body) });
}

export function openGet(url: string, session: string, options: { pin?: number; lastEventId?: string } = {}): Promise<SseReader> {
  const headers: Record<string, string> = { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': LEGACY };
  if (options.pin !== undefined) headers['x-pin'] = String(options.pin);
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  return SseReader.open(url, { method: 'GET', headers });
}

export const textOf = (message: Json | undefined): string => {
  const content = ((message?.['result'] as Json | undefined)?.['content'] as { text?: string }[] | undefined) ?? [];
  return content.map((c) => c.text ?? '').join('');
};

export const call = (id: number, name: string, args: Json = {}, meta?: Json): Json => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) },
});

/**
 * The hostile suite's server processes (crash-server.mjs, built from dist/) and
 * the requests it sends them. A process that survives is alive, still answers,
 * and wrote nothing to stderr but the one-line `[logged]` reports of its logger:
 * an unhandled rejection or uncaught exception would have ended it (Node's
 * default) or printed a stack.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { expect } from 'vitest';
import { mountMcpHttp, type MountMcpHttpOptions } from '../../src/adapters/express.js';
import type { McpServer } from '../../src/server/server.js';
import { postRaw } from '../fixtures/modern-http.mjs';
import type { TestServer } from '../transports/http/support.js';
import { checkOutgoing, LineCollector } from '../support/wire.js';

const FIXTURE = fileURLToPath(new URL('./crash-server.mjs', import.meta.url));
const children = new Set<ChildProcessWithoutNullStreams>();

export type Json = Record<string, unknown>;
export type HttpMode = 'node' | 'fetch' | 'express';
export const HTTP_MODES: readonly HttpMode[] = ['node', 'fetch', 'express'];
import { LEGACY, MODERN } from '../support/revisions.js';

export { LEGACY, MODERN };

export interface ServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  stderr(): string;
  readonly exited: Promise<number | null>;
}

function start(args: string[], env: Record<string, string>): ServerProcess & { stdout: NodeJS.ReadableStream } {
  const child = spawn(process.execPath, [FIXTURE, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  children.add(child);
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: child.stdout, stderr: () => stderr, exited };
}

export interface HttpProcess extends ServerProcess {
  readonly url: string;
}

export async function spawnHttp(mode: HttpMode, flags: string[] = []): Promise<HttpProcess> {
  const server = start(['--mode', mode, ...flags], {});
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout.setEncoding('utf8');
    server.stdout.on('data', (chunk: string) => {
      out += chunk;
      const match = /READY (\S+)\n/.exec(out);
      if (match) resolve(match[1]!);
    });
    void server.exited.then((code) => reject(new Error(`server exited (${code}) before it was ready: ${server.stderr()}`)));
  });
  return { ...server, url };
}

export interface StdioProcess extends ServerProcess {
  readonly lines: LineCollector;
  send(message: unknown): void;
  revision: string;
}

export function spawnStdio(env: Record<string, string> = {}): StdioProcess {
  const server = start(['--mode', 'stdio'], env);
  const methods = new Map<unknown, string>();
  const spawned: StdioProcess = {
    ...server,
    lines: new LineCollector(server.stdout, () => spawned.revision, (id) => methods.get(id)),
    send(message) {
      if (typeof message === 'string') {
        server.child.stdin.write(`${message}\n`);
        return;
      }
      const m = message as Json;
      if (typeof m['method'] === 'string' && 'id' in m) methods.set(m['id'], m['method']);
      server.child.stdin.write(`${JSON.stringify(message)}\n`);
    },
    revision: LEGACY,
  };
  return spawned;
}

export async function killAll(): Promise<void> {
  await Promise.all(
    [...children].map(
      (child) =>
        new Promise<void>((resolve) => {
          children.delete(child);
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

/** Still running, and stderr holds only the logger's one-line reports (no stack, no "Unhandled"). */
export function expectHealthy(server: ServerProcess): void {
  expect(server.child.exitCode).toBeNull();
  expect(server.child.signalCode).toBeNull();
  const stray = server.stderr().split('\n').filter((line) => line !== '' && !line.startsWith('[logged] '));
  expect(stray).toEqual([]);
}

export function modernMeta(capabilities: Json = { elicitation: {} }): Json {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'hostile', version: '1.0.0' },
  };
}

/** A 2026-07-28 tools/call with the headers a conforming client sends. */
export function modernCall(id: number, name: string, args: Json, extra: Json = {}): { body: Json; headers: Record<string, string> } {
  return {
    body: { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: modernMeta(), ...extra } },
    headers: { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name },
  };
}

export interface Answer {
  status: number;
  contentType: string;
  text: string;
  messages: Json[];
}

/** POSTs a raw body; the JSON-RPC messages of a JSON or SSE answer. */
export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const { status, contentType, text, messages } = await postRaw(url, body, headers);
  return { status, contentType, text, messages: messages as Json[] };
}

/** The express adapter (mountMcpHttp) on 127.0.0.1:0, shaped like the node and fetch test servers. */
export async function startExpress(server: McpServer, options: MountMcpHttpOptions = {}): Promise<TestServer> {
  const app = express();
  const handler = mountMcpHttp(app, server, { path: '/mcp', ...options });
  const http = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => http.once('listening', () => resolve()));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    origin: `http://127.0.0.1:${port}`,
    port,
    async close() {
      await handler.close({ graceMs: 0 });
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** Stands for a value nested `deep` arrays deep in the bodies `callModern` sends (too deep for JSON.stringify here). */
export const DEEP = '__DEEP__';

/**
 * POSTs a modern tools/call and validates every message against the 2026-07-28 schema.
 * The string DEEP anywhere in the body becomes a value nested `deep` (default 100,000) arrays deep.
 */
export async function callModern(url: string, id: number, name: string, args: Json, extra: Json = {}, deep = 100_000): Promise<Answer> {
  const { body, headers } = modernCall(id, name, args, extra);
  const answer = await post(url, JSON.stringify(body).replaceAll(`"${DEEP}"`, deepJson(deep)), headers);
  for (const message of answer.messages) checkOutgoing(message, MODERN, () => 'tools/call');
  return answer;
}

/** The -32603 answer a request whose response cannot be serialised gets. */
export function unserialisable(id: number): Json {
  return { jsonrpc: '2.0', id, error: { code: -32603, message: 'Internal error: the response could not be serialised as JSON' } };
}

/** A value nested `depth` arrays deep, as JSON text (12 KB for 6,000). */
export function deepJson(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

/** A complete 2026-07-28 tools/call result as the fixture sends it. */
export function modernResult(id: number, result: Json): Json {
  return { jsonrpc: '2.0', id, result: { ...result, resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'crash-fixture', version: '1.0.0' } } } };
}

/** The server still serves: a modern echo gets its answer. */
export async function expectServing(url: string): Promise<void> {
  const answer = await callModern(url, 999, 'echo_structured', { still: 'here' });
  expect(answer.status).toBe(200);
  expect(answer.messages).toEqual([modernResult(999, { content: [{ type: 'text', text: 'echoed' }], structuredContent: { still: 'here' } })]);
}

/**
 * Captures every message mcpkit writes in a test and validates it against the
 * MCP schema of the negotiated revision (test/support/wire-schema.ts).
 *
 * One exception, made explicitly in `checkOutgoing`: a response whose `id` is
 * null. JSON-RPC 2.0 requires `id: null` on an error when the request's id
 * could not be determined (parse errors, invalid envelopes), and a request may
 * itself use `null` as its id; the MCP schemas do not model a null id, so the
 * envelope of those is checked by hand (and a result still by schema).
 */
import { PassThrough } from 'node:stream';
import { expect } from 'vitest';
import type { McpConnection, MessageExtra } from '../../src/protocol/connection.js';
import type { McpProtocolHandler } from '../../src/protocol/dispatch/protocol-handler.js';
import type { McpServer } from '../../src/server/server.js';
import { definitionForMethod, expectValidResult, expectValidWire } from './wire-schema.js';

import { LEGACY as DEFAULT_REVISION, MODERN as MODERN_REVISION } from './revisions.js';

export { DEFAULT_REVISION, MODERN_REVISION };
export const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON-RPC error response with `id: null` (not modelled by the MCP schemas). */
export function isNullIdError(message: unknown): boolean {
  return isObject(message) && message['id'] === null && isObject(message['error']);
}

/**
 * Hand check of a null-id error: exactly `{jsonrpc, id: null, error: {code, message[, data]}}`
 * with an integer code and a string message.
 */
export function expectNullIdError(message: unknown, code?: number): void {
  expect(isObject(message)).toBe(true);
  const m = message as Json;
  expect(Object.keys(m).sort()).toEqual(['error', 'id', 'jsonrpc']);
  expect(m['jsonrpc']).toBe('2.0');
  expect(m['id']).toBeNull();
  const error = m['error'] as Json;
  expect(Number.isInteger(error['code'])).toBe(true);
  expect(typeof error['message']).toBe('string');
  for (const key of Object.keys(error)) expect(['code', 'message', 'data']).toContain(key);
  if (code !== undefined) expect(error['code']).toBe(code);
}

/** The method a response answers, when the spec defines it as a request in `revision`. */
function resultMethod(method: string | undefined, revision: string): string | undefined {
  if (method === undefined) return undefined;
  return definitionForMethod(method, revision)?.kind === 'request' ? method : undefined;
}

/**
 * Validates one outgoing message (or each member of a batch response) for
 * `revision`. `methodOf(id)` names the request a response answers, so its
 * result is checked against that method's result type too.
 */
export function checkOutgoing(message: unknown, revision: string, methodOf: (id: unknown) => string | undefined = () => undefined): void {
  if (Array.isArray(message)) {
    // Batch responses: each member is a JSON-RPC response of its own (batches
    // are not part of every revision's JSONRPCMessage union).
    expect(message.length).toBeGreaterThan(0);
    for (const member of message) checkOutgoing(member, revision, methodOf);
    return;
  }
  if (isNullIdError(message)) {
    // Skipped on purpose: JSON-RPC requires `id: null` here; the MCP schemas do not model it.
    expectNullIdError(message);
    return;
  }
  if (isObject(message) && message['id'] === null && 'result' in message) {
    // A request that used `null` as its id (JSON-RPC allows it; MCP's RequestId
    // does not model it): check the envelope by hand and the result by schema.
    expect(Object.keys(message).sort()).toEqual(['id', 'jsonrpc', 'result']);
    expect(message['jsonrpc']).toBe('2.0');
    const method = resultMethod(methodOf(null), revision);
    if (method !== undefined) expectValidResult(message['result'], method, revision);
    return;
  }
  const id = isObject(message) && !('method' in message) ? message['id'] : undefined;
  expectValidWire(message, revision, id === undefined ? undefined : resultMethod(methodOf(id), revision));
}

/** Request ids → methods of one inbound payload (single or batch). */
function methodsById(payload: unknown): Map<unknown, string> {
  const map = new Map<unknown, string>();
  for (const item of Array.isArray(payload) ? payload : [payload]) {
    if (isObject(item) && 'id' in item && typeof item['method'] === 'string') map.set(item['id'], item['method']);
  }
  return map;
}

/** The revision a request announces in its `_meta` (2026-07-28), if any. */
function announcedRevision(payload: unknown): string | undefined {
  const first = Array.isArray(payload) ? payload[0] : payload;
  const params = isObject(first) ? first['params'] : undefined;
  const meta = isObject(params) ? params['_meta'] : undefined;
  const version = isObject(meta) ? meta[META_VERSION] : undefined;
  return typeof version === 'string' ? version : undefined;
}

export interface Harness {
  readonly connection: McpProtocolHandler;
  /** Everything the connection wrote outside responses (notifications, server→client requests). */
  readonly sent: unknown[];
  /** Every response `handleMessage` returned. */
  readonly responses: unknown[];
  /** The revision outgoing messages are validated against right now. */
  revision(): string;
  /** `handleMessage`, with the response validated for the negotiated revision. */
  send(payload: unknown, extra?: MessageExtra): Promise<unknown>;
  /** Sends a request with the next id and returns its response. */
  request(method: string, params?: Json): Promise<Json>;
  /** Sends `initialize` (and `notifications/initialized`) for `protocolVersion`. */
  initialize(protocolVersion?: string): Promise<Json>;
}

/** Opens a connection on `server` whose every outgoing message is validated. */
export function harness(server: McpServer): Harness {
  const sent: unknown[] = [];
  const responses: unknown[] = [];
  let nextId = 1;
  // `revision` and `send` only run once a message is handled, after `handler` is set.
  const revision = (): string => handler.record?.protocolVersion ?? DEFAULT_REVISION;
  const handler = server.openConnection({
    send: (message) => {
      checkOutgoing(message, revision());
      sent.push(message);
    },
  }) as McpProtocolHandler;
  const connection: McpConnection = handler;
  const h: Harness = {
    connection: handler,
    sent,
    responses,
    revision,
    async send(payload, extra) {
      const methods = methodsById(payload);
      const announced = announcedRevision(payload);
      const response = await connection.handleMessage(payload, extra);
      if (response !== undefined) {
        checkOutgoing(response, announced ?? revision(), (id) => methods.get(id));
        responses.push(response);
      }
      return response;
    },
    async request(method, params) {
      const id = nextId++;
      const message: Json = { jsonrpc: '2.0', id, method };
      if (params !== undefined) message['params'] = params;
      const response = await h.send(message);
      expect(isObject(response)).toBe(true);
      expect((response as Json)['id']).toBe(id);
      return response as Json;
    },
    async initialize(protocolVersion = DEFAULT_REVISION) {
      const response = await h.request('initialize', {
        protocolVersion,
        capabilities: {},
        clientInfo: { name: 'test-client', version: '0.0.1' },
      });
      expect(await h.send({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeUndefined();
      return response;
    },
  };
  return h;
}

/** The `_meta` a 2026-07-28 request carries. */
export function modernMeta(capabilities: Json = {}): Json {
  return {
    [META_VERSION]: MODERN_REVISION,
    [META_CAPABILITIES]: capabilities,
    [META_CLIENT_INFO]: { name: 'test-client', version: '0.0.1' },
  };
}

/** A resolvable promise: a test opens it when it wants a handler to go on. */
export interface Gate {
  readonly promise: Promise<void>;
  open(): void;
}

export function gate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Lets pending I/O callbacks and immediates run (no wall-clock waiting). */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * Collects newline-delimited lines written to a stream, checking that every
 * line is one complete JSON document and validating it as an outgoing message.
 */
export class LineCollector {
  readonly lines: string[] = [];
  readonly messages: unknown[] = [];
  #partial = '';
  #waiters: { count: number; resolve: () => void }[] = [];

  constructor(
    stream: NodeJS.ReadableStream,
    private readonly revision: () => string = () => DEFAULT_REVISION,
    private readonly methodOf: (id: unknown) => string | undefined = () => undefined,
  ) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => this.#push(chunk));
  }

  #push(chunk: string): void {
    const parts = (this.#partial + chunk).split('\n');
    this.#partial = parts.pop() ?? '';
    for (const line of parts) {
      this.lines.push(line);
      const message: unknown = JSON.parse(line);
      checkOutgoing(message, this.revision(), this.methodOf);
      this.messages.push(message);
    }
    this.#waiters = this.#waiters.filter((w) => {
      if (this.messages.length < w.count) return true;
      w.resolve();
      return false;
    });
  }

  /** Bytes after the last newline (a complete run leaves none). */
  get partial(): string {
    return this.#partial;
  }

  /** Resolves once `count` messages have arrived in total. */
  waitFor(count: number): Promise<void> {
    if (this.messages.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }
}

/** A PassThrough pair standing in for stdin/stdout. */
export function streamPair(): { input: PassThrough; output: PassThrough } {
  return { input: new PassThrough(), output: new PassThrough() };
}

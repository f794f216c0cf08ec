/**
 * The CLI's MCP client, in either era: legacy (`initialize`, then a session)
 * or 2026-07-28 (every request carries `_meta`; input-required results are
 * answered and the request retried). `auto` asks `server/discover` first and
 * falls back to `initialize` when the server does not know it.
 */
import { readPackage } from '../package-root.js';
import { CliError, Exit } from '../errors.js';
import { RpcError, notMcp, type Json, type Wire } from './wire.js';

export type Era = 'auto' | 'legacy' | '2026-07-28';
export const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const MAX_ROUNDS = 10;

export interface ClientHandlers {
  /** Answers an `elicitation/create` (a server request on a legacy session, an input request on a modern one). */
  elicit?: (params: Json) => Promise<Json>;
  /** Every notification the server sends (progress, log messages, list changes). */
  notification?: (method: string, params: Json) => void;
}

export interface Connected {
  era: 'legacy' | 'modern';
  protocolVersion: string;
  /** The `initialize` result (legacy) or the `server/discover` result (modern). */
  hello: Json;
}

export class McpClient {
  #nextId = 1;
  #pending = new Map<number, { resolve: (r: Json) => void; reject: (e: Error) => void }>();
  #modern = false;
  #capabilities: Json;
  #clientInfo = { name: 'mcpkit-cli', version: readPackage().version };

  constructor(
    readonly wire: Wire,
    private readonly handlers: ClientHandlers = {},
  ) {
    this.#capabilities = handlers.elicit ? { elicitation: { form: {} } } : {};
    wire.onMessage = (message) => this.#receive(message);
    wire.onClose = (error: CliError) => {
      for (const p of this.#pending.values()) p.reject(error);
      this.#pending.clear();
    };
  }

  async connect(era: Era): Promise<Connected> {
    if (era !== 'legacy') {
      this.#modern = true;
      this.wire.protocolVersion = MODERN;
      try {
        return { era: 'modern', protocolVersion: MODERN, hello: await this.request('server/discover') };
      } catch (error) {
        if (era === MODERN || !(error instanceof CliError) || error.exitCode !== Exit.PROTOCOL) throw error;
        this.#modern = false; // a legacy-only server: fall back to the handshake
        this.wire.protocolVersion = undefined;
      }
    }
    const hello = await this.request('initialize', { protocolVersion: LEGACY, capabilities: this.#capabilities, clientInfo: this.#clientInfo });
    const version = hello['protocolVersion'];
    if (typeof version !== 'string') throw notMcp('the initialize result has no protocolVersion');
    this.wire.protocolVersion = version;
    await this.wire.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return { era: 'legacy', protocolVersion: version, hello };
  }

  /** One request; on 2026-07-28, input-required rounds are answered until the result is final. */
  async request(method: string, params: Json = {}, headers?: Record<string, string>): Promise<Json> {
    let current = params;
    for (let round = 0; ; round++) {
      const result = await this.#requestOnce(method, current, headers);
      if (!this.#modern || result['resultType'] !== 'input_required') return result;
      if (round >= MAX_ROUNDS) throw notMcp(`${method}: the server still asked for input after ${MAX_ROUNDS} rounds`);
      const inputResponses: Json = {};
      for (const [key, input] of Object.entries((result['inputRequests'] ?? {}) as Record<string, Json>)) {
        inputResponses[key] = await this.#answer(String(input['method']), (input['params'] ?? {}) as Json);
      }
      current = { ...params, inputResponses, ...(result['requestState'] === undefined ? {} : { requestState: result['requestState'] }) };
    }
  }

  /** Every page of a list method, concatenated. */
  async list(method: string, field: string): Promise<Json[]> {
    const items: Json[] = [];
    let cursor: unknown;
    do {
      const page = await this.request(method, cursor === undefined ? {} : { cursor });
      items.push(...((page[field] ?? []) as Json[]));
      cursor = page['nextCursor'];
    } while (typeof cursor === 'string');
    return items;
  }

  close(): Promise<void> {
    return this.wire.close();
  }

  async #requestOnce(method: string, params: Json, headers?: Record<string, string>): Promise<Json> {
    const id = this.#nextId++;
    const withMeta = this.#modern
      ? { ...params, _meta: { ...(params['_meta'] as Json | undefined), 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': this.#capabilities, 'io.modelcontextprotocol/clientInfo': this.#clientInfo } }
      : params;
    const answer = new Promise<Json>((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    try {
      await this.wire.send({ jsonrpc: '2.0', id, method, params: withMeta }, headers);
    } catch (error) {
      this.#pending.delete(id);
      throw error;
    }
    return answer;
  }

  async #answer(method: string, params: Json): Promise<Json> {
    if (method === 'elicitation/create' && this.handlers.elicit) return this.handlers.elicit(params);
    if (method === 'ping') return {};
    throw new RpcError(-32601, `the mcpkit CLI does not answer ${method}`, undefined);
  }

  #receive(message: Json): void {
    const id = message['id'];
    if (typeof message['method'] === 'string') {
      const params = (message['params'] ?? {}) as Json;
      if (id === undefined) {
        this.handlers.notification?.(message['method'], params);
        return;
      }
      // A server→client request (legacy session): answer it.
      void this.#answer(message['method'], params).then(
        (result) => this.wire.send({ jsonrpc: '2.0', id, result }),
        (error: unknown) => this.wire.send({ jsonrpc: '2.0', id, error: error instanceof RpcError ? { code: error.code, message: error.rpcMessage } : { code: -32603, message: String(error) } }),
      ).catch(() => {}); // the connection is gone: there is no one left to answer
      return;
    }
    const pending = typeof id === 'number' ? this.#pending.get(id) : undefined;
    if (!pending) return;
    this.#pending.delete(id as number);
    const error = message['error'] as Json | undefined;
    if (error) pending.reject(new RpcError(Number(error['code']), String(error['message']), error['data']));
    else if (message['result'] !== null && typeof message['result'] === 'object') pending.resolve(message['result'] as Json);
    else pending.reject(notMcp(`the answer to request ${String(id)} has neither result nor error`));
  }
}

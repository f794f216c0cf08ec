/**
 * What the server asks of the client: legacy server→client requests (sampling, elicitation,
 * roots, ping) and 2026-07-28 input requests, answered by the same handlers. Bounded by
 * `maxInboundRequests` (legacy) and 64 inputs per round (2026-07-28).
 */
import type { AbortSignalLike } from '../protocol/connection.js';
import { isPlainObject, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from '../jsonrpc/message.js';
import { ErrorCode } from '../jsonrpc/errors.js';
import type { CreateMessageParams, ElicitFormParams } from '../wire-types/index.js';
import { completeElicitation } from './elicitation.js';
import { McpError } from './errors.js';
import type { ClientOptions, ElicitationHandler, HandlerExtra, Json } from './options.js';

/** Most input requests answered in one 2026-07-28 round. */
const MAX_INPUTS_PER_ROUND = 64;

export class ServerRequests {
  readonly #inbound = new Map<JsonRpcId, AbortController>();

  constructor(
    private readonly options: ClientOptions,
    /** Sends an answer (nothing when the client has closed). */
    private readonly reply: (message: JsonRpcMessage, method: string) => void,
  ) {}

  /** A legacy server→client request: answered with the handler's result or an error. */
  handle(request: JsonRpcRequest): void {
    const { id, method } = request;
    // 2025-11-25 task augmentation (`params.task`): the client declares no `tasks` capability, so it
    // answers such a request normally, as the spec asks of a receiver that does not declare it.
    const { task: _task, ...params } = isPlainObject(request.params) ? request.params : {};
    const max = this.options.maxInboundRequests ?? 64;
    if (this.#inbound.size >= max || this.#inbound.has(id)) {
      return this.reply({ jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message: `The client is already answering ${this.#inbound.size} requests (maxInboundRequests)` } }, method);
    }
    const controller = new AbortController();
    this.#inbound.set(id, controller);
    answer(this.options, method, params, controller.signal).then(
      (result) => {
        this.#inbound.delete(id);
        if (!controller.signal.aborted) this.reply({ jsonrpc: '2.0', id, result }, method);
      },
      (error: unknown) => {
        this.#inbound.delete(id);
        if (controller.signal.aborted) return;
        const code = error instanceof McpError ? error.code : ErrorCode.InternalError;
        this.reply({ jsonrpc: '2.0', id, error: { code, message: error instanceof Error ? error.message : String(error) } }, method);
      },
    );
  }

  /** `notifications/cancelled` from the server: the handler's signal aborts and no answer is sent. */
  cancelled(id: unknown, reason: unknown): void {
    this.#inbound.get(id as JsonRpcId)?.abort(reason);
  }

  abortAll(): void {
    for (const controller of this.#inbound.values()) controller.abort();
    this.#inbound.clear();
  }

  /** A 2026-07-28 `InputRequiredResult`'s `inputRequests`, answered by key. */
  async inputs(method: string, requests: unknown, signal: AbortSignalLike | undefined): Promise<Json> {
    if (!isPlainObject(requests)) throw new McpError(method, ErrorCode.InternalError, 'The server asked for input without inputRequests');
    const entries = Object.entries(requests);
    if (entries.length > MAX_INPUTS_PER_ROUND) throw new McpError(method, ErrorCode.InternalError, `The server asked for ${entries.length} inputs in one round (at most ${MAX_INPUTS_PER_ROUND})`);
    const controller = new AbortController();
    const stop = (): void => controller.abort(signal?.reason);
    signal?.addEventListener('abort', stop, { once: true });
    try {
      const answers: Json = {};
      await Promise.all(
        entries.map(async ([key, request]) => {
          const r = isPlainObject(request) ? request : {};
          answers[key] = await answer(this.options, String(r['method']), isPlainObject(r['params']) ? r['params'] : {}, controller.signal);
        }),
      );
      return answers;
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  }
}

/** Runs the handler for a server's request (legacy) or input request (2026-07-28). */
async function answer(o: ClientOptions, method: string, params: Json, signal: AbortSignal): Promise<Json> {
  const extra: HandlerExtra = { signal };
  const missing = (what: string): never => {
    throw new McpError(method, ErrorCode.MethodNotFound, `Method not found: this client has no ${what} handler`);
  };
  switch (method) {
    case 'ping':
      return {};
    case 'sampling/createMessage':
      return (o.sampling ?? missing('sampling'))(params as unknown as CreateMessageParams, extra);
    case 'roots/list': {
      const roots = o.roots ?? missing('roots');
      return { roots: [...(typeof roots === 'function' ? await roots() : roots)] };
    }
    case 'elicitation/create': {
      const url = params['mode'] === 'url';
      const handler = typeof o.elicitation === 'function' ? o.elicitation : url ? o.elicitation?.url : o.elicitation?.form;
      if (handler === undefined) missing(url ? 'URL-mode elicitation' : 'form elicitation');
      const result = await (handler as ElicitationHandler)(params as unknown as ElicitFormParams, extra);
      if (url || !isPlainObject(result)) return result as unknown as Json;
      const checked = await completeElicitation(params['requestedSchema'], result);
      if (!checked.ok) throw new McpError(method, ErrorCode.InternalError, checked.message);
      return checked.result as unknown as Json;
    }
    default:
      return missing(method);
  }
}

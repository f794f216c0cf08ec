/**
 * The `_meta` of the client's requests. On 2026-07-28 every request carries the protocol version, the
 * client's capabilities and info (and the log level once set): made once as a base (with and without
 * the tasks extension) and copied per request, rather than four keyed stores each time.
 */
import { isPlainObject } from '../jsonrpc/message.js';
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL, META_PROTOCOL_VERSION } from '../protocol/wire/meta-keys.js';
import type { ProtocolVersion } from '../protocol/wire/versions.js';
import type { ClientCapabilities, Implementation, LoggingLevel } from '../wire-types/index.js';
import type { Json } from './options.js';

export class RequestMeta {
  #logLevel: LoggingLevel | undefined;
  #base: [Json, Json] | undefined;

  constructor(
    private readonly version: ProtocolVersion,
    private readonly capabilities: ClientCapabilities,
    /** The capabilities with the tasks extension, for requests that can await a task. */
    private readonly withTasks: ClientCapabilities,
    private readonly clientInfo: Implementation,
    logLevel: LoggingLevel | undefined,
  ) {
    this.#logLevel = logLevel;
  }

  get logLevel(): LoggingLevel | undefined {
    return this.#logLevel;
  }

  set logLevel(level: LoggingLevel | undefined) {
    this.#logLevel = level;
    this.#base = undefined;
  }

  /** `params` with the request's `_meta`: its own, `meta` (the request options'), the progress token, and on 2026-07-28 the client's keys, which win. */
  params(params: Json, meta: Json | undefined, progressToken: string | number | undefined, modern: boolean, tasks: boolean): Json {
    const given = isPlainObject(params['_meta']) ? params['_meta'] : undefined;
    if (!modern && meta === undefined && progressToken === undefined) return params;
    // The common 2026-07-28 request (no _meta of its own): a copy of the one base, one object of one shape.
    if (modern && given === undefined && meta === undefined && progressToken === undefined) return { ...params, _meta: { ...this.#modern(tasks) } };
    const out: Json = { ...given, ...meta };
    if (progressToken !== undefined) out['progressToken'] = progressToken;
    if (modern) Object.assign(out, this.#modern(tasks));
    return { ...params, _meta: out };
  }

  #modern(tasks: boolean): Json {
    const base = (this.#base ??= [this.capabilities, this.withTasks].map((capabilities) => {
      const meta: Json = { [META_PROTOCOL_VERSION]: this.version, [META_CLIENT_CAPABILITIES]: capabilities, [META_CLIENT_INFO]: this.clientInfo };
      if (this.#logLevel !== undefined) meta[META_LOG_LEVEL] = this.#logLevel;
      return meta;
    }) as [Json, Json]);
    return base[tasks ? 1 : 0];
  }
}

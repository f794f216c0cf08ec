import { isPlainObject } from '../../jsonrpc/message.js';
import { isLoggingLevel } from './logging.js';
import type { ClientCapabilities, Implementation, LoggingLevel, ServerCapabilities } from '../../wire-types/index.js';
import { isLegacyVersion } from './versions.js';

/**
 * What a legacy session negotiated, as plain JSON: `initialize`'s outcome plus
 * what later requests changed (`logging/setLevel`, `resources/subscribe`,
 * `resources/unsubscribe`). A connection opened with it (`ConnectionOptions.record`,
 * `McpServer.restoreConnection`) behaves exactly as the session that produced it,
 * on this process or another one. Store it as JSON; `v` tags its shape.
 */
export interface SessionRecord {
  readonly v: 1;
  /** The legacy revision `initialize` negotiated. */
  readonly protocolVersion: string;
  readonly clientInfo?: Implementation;
  readonly clientCapabilities: ClientCapabilities;
  /** What `initialize` answered: only these lists send `list_changed` to the session. */
  readonly serverCapabilities: ServerCapabilities;
  /** The threshold `logging/setLevel` set; absent: every level is sent. */
  readonly logLevel?: LoggingLevel;
  /** Resource URIs of `resources/subscribe`, in subscription order. */
  readonly subscriptions: readonly string[];
}

/** Called after every change of a session's record, before the request that changed it is answered. */
export type RecordChangeListener = (record: SessionRecord) => void | Promise<void>;

const NONE: readonly string[] = Object.freeze([]);

/** The record `initialize` negotiates. */
export function negotiatedRecord(
  protocolVersion: string,
  clientInfo: Implementation | undefined,
  clientCapabilities: ClientCapabilities,
  serverCapabilities: ServerCapabilities,
): SessionRecord {
  // One literal per shape: a property added afterwards would cost every session an out-of-object property array.
  if (clientInfo === undefined) return { v: 1, protocolVersion, clientCapabilities, serverCapabilities, subscriptions: NONE };
  return { v: 1, protocolVersion, clientInfo, clientCapabilities, serverCapabilities, subscriptions: NONE };
}

function invalid(field: string, expected: string): TypeError {
  return new TypeError(`Invalid session record: ${field} must be ${expected}`);
}

/**
 * Checks that `value` (e.g. parsed from a store) is a SessionRecord this
 * version of mcpkit can restore, and returns it typed. Throws a TypeError
 * naming the first field that is wrong.
 */
export function parseSessionRecord(value: unknown): SessionRecord {
  if (!isPlainObject(value)) throw invalid('the record', 'an object');
  if (value['v'] !== 1) throw invalid('"v"', '1 (the only record version this mcpkit knows)');
  if (!isLegacyVersion(value['protocolVersion'])) throw invalid('"protocolVersion"', 'a revision negotiated by initialize (2024-11-05 … 2025-11-25)');
  if (value['clientInfo'] !== undefined && !isPlainObject(value['clientInfo'])) throw invalid('"clientInfo"', 'an object when present');
  if (!isPlainObject(value['clientCapabilities'])) throw invalid('"clientCapabilities"', 'an object');
  if (!isPlainObject(value['serverCapabilities'])) throw invalid('"serverCapabilities"', 'an object');
  if (value['logLevel'] !== undefined && !isLoggingLevel(value['logLevel'])) throw invalid('"logLevel"', 'a logging level when present');
  const subscriptions = value['subscriptions'];
  if (!Array.isArray(subscriptions) || !subscriptions.every((uri) => typeof uri === 'string')) throw invalid('"subscriptions"', 'an array of URI strings');
  return value as unknown as SessionRecord;
}

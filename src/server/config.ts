/**
 * What `new McpServer(config)` accepts: the config's shape, the keys it checks
 * (a misspelt one is refused with the right name), and the default logger.
 */
import type { Logger, ProtocolLimits, ProtocolOptions, RequestStateOptions, ResultOptions, ServerTaskOptions } from '../protocol/scopes/options.js';
import type { Implementation, ServerCapabilities } from '../wire-types/index.js';
import type { NotificationBus } from '../stores/bus.js';
import type { McpTransport } from '../transports/transport.js';
import { shapeOf } from '../util/known-keys.js';

/** The server's limits: the protocol's, and the URIs its resource registry matches. */
export interface McpServerLimits extends ProtocolLimits {
  /**
   * The longest URI `resources/read` matches against resource templates (default 8192
   * UTF-16 code units); a longer one gets the revision's resource-not-found error.
   */
  maxUriLength?: number;
}

/**
 * The server's name, version and the rest of its `Implementation` (serverInfo) come first;
 * what it runs with is grouped by concern (`limits`, `results`, `requestState`, `tasks`).
 */
export interface McpServerConfig extends Omit<ProtocolOptions, 'limits'>, Implementation {
  /** Bounds on what one peer can make the server hold or wait for. */
  limits?: McpServerLimits;
  /** Guidance for the model about how to use this server. */
  instructions?: string;
  /** The transport `start()` connects. `connect()` attaches more. */
  transport?: McpTransport;
  /** Where mcpkit reports what goes wrong server-side (stderr by default; never stdout). */
  logger?: Logger;
  /** Capabilities to declare in addition to those derived from what is registered. */
  capabilities?: ServerCapabilities;
  /** The notification bus (default: in memory); share one across processes to fan changes out. */
  bus?: NotificationBus;
  /**
   * Refuse tool names outside the MCP tool-name rules (1-128 characters of A-Z a-z 0-9 _ - .)
   * at registration (default true). Set false to allow other names (clients may reject them).
   */
  strictToolNames?: boolean;
}

export const SERVER_KEYS = shapeOf<McpServerConfig>(
  {
    name: true, version: true, title: true, description: true, websiteUrl: true, icons: true, instructions: true,
    transport: true, logger: true, capabilities: true, bus: true, strictToolNames: true, protocolVersions: true,
    limits: true, results: true, requestState: true, tasks: true,
  },
  {
    limits: shapeOf<McpServerLimits>({
      maxBatchSize: true, maxUriLength: true, requestTimeoutMs: true, clientRequestTimeoutMs: true, maxSubscriptionsPerSession: true,
      maxSubscriptionBytesPerSession: true, maxPendingClientRequests: true, maxPendingClientRequestBytes: true,
    }),
    results: shapeOf<ResultOptions>({ pageSize: true, maskErrors: true, cacheHints: true, serverInfoInMeta: true }),
    requestState: shapeOf<RequestStateOptions>({ keys: true, ttlMs: true }),
    tasks: shapeOf<ServerTaskOptions>({ store: true, channel: true, inputTimeoutMs: true }),
  },
);

export const stderrLogger: Logger = {
  error: (message, ...args) => console.error(message, ...args),
  warn: (message, ...args) => console.error(message, ...args),
};

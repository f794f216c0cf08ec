/**
 * A gateway: one McpServer serving several upstream servers, each mounted under its config key
 * (tools and prompts `<key>_<name>`, resources `<key>+<uri>`), or one upstream as it is.
 */
import { McpServer, type McpServerConfig } from '../server/server.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';
import type { GatewayConfig, UpstreamConfig } from './config.js';
import { toolSearchProvider } from '../compose/tool-search.js';
import { createProxy, type McpProxy, type ProxyOptions } from './proxy.js';

export interface GatewayOptions {
  /** The gateway's serverInfo (default `{ name: 'mcpkit-proxy', version: '0.0.0' }`). */
  info?: { name: string; version: string };
  /** Options for every upstream's proxy, or a function giving them per config key. */
  proxy?: Omit<ProxyOptions, 'name'> | ((name: string) => Omit<ProxyOptions, 'name'>);
  /** Passed to the McpServer (requestStateKeys, bus, logger, …). */
  server?: Omit<McpServerConfig, 'name' | 'version'>;
}

const GATEWAY_KEYS = keysOf<GatewayOptions>({ info: true, proxy: true, server: true });

export interface McpGateway {
  readonly server: McpServer;
  /** The proxies by config key (`""` for a single unnamespaced upstream). */
  readonly proxies: ReadonlyMap<string, McpProxy>;
  /** Connects to every upstream and fetches its lists; an upstream that fails is reported, the others served. */
  ready(): Promise<{ name: string; error: Error }[]>;
  close(): Promise<void>;
}

/**
 * `config`: the `mcpServers` file (each server mounted under its key), or one upstream (served as
 * it is, no namespace).
 */
export function createGateway(config: GatewayConfig | UpstreamConfig, options: GatewayOptions = {}): McpGateway {
  refuseUnknownKeys(options, GATEWAY_KEYS, 'createGateway() options');
  const info = options.info ?? { name: 'mcpkit-proxy', version: '0.0.0' };
  const server = new McpServer({ ...options.server, name: info.name, version: info.version });
  const proxies = new Map<string, McpProxy>();
  const optionsFor = (name: string): Omit<ProxyOptions, 'name'> => (typeof options.proxy === 'function' ? options.proxy(name) : (options.proxy ?? {}));
  if ('mcpServers' in config) {
    for (const [name, upstream] of Object.entries(config.mcpServers)) {
      const proxy = createProxy(upstream, { ...optionsFor(name), name });
      proxies.set(name, proxy);
      server.mount(upstream.toolSearch === true ? toolSearchProvider(proxy) : proxy, { namespace: name });
    }
  } else {
    const proxy = createProxy(config, optionsFor(''));
    proxies.set('', proxy);
    server.provide(config.toolSearch === true ? toolSearchProvider(proxy) : proxy);
  }
  return {
    server,
    proxies,
    async ready() {
      const failed: { name: string; error: Error }[] = [];
      await Promise.all(
        [...proxies].map(([name, proxy]) =>
          proxy.ready().catch((error: unknown) => void failed.push({ name, error: error instanceof Error ? error : new Error(String(error)) })),
        ),
      );
      return failed;
    },
    async close() {
      await server.stop();
      await Promise.all([...proxies.values()].map((proxy) => proxy.close()));
    },
  };
}

/**
 * `mcpkit/gateway`: any MCP server (a stdio command or a URL, either era) as a provider of an
 * mcpkit server, and a gateway that mounts several under one endpoint. See docs/gateway.md.
 */
export { createProxy } from './gateway/proxy.js';
export type { McpProxy, ProxyOptions } from './gateway/proxy.js';
export { createGateway } from './gateway/gateway.js';
export type { GatewayOptions, McpGateway } from './gateway/gateway.js';
export { GatewayConfigError, parseGatewayConfig, upstreamEnv } from './gateway/config.js';
export type { GatewayConfig, HttpUpstreamConfig, StdioUpstreamConfig, UpstreamConfig } from './gateway/config.js';
export { UpstreamError } from './gateway/upstream.js';
export type { LinkOwner } from './gateway/upstream.js';

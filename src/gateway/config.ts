/**
 * The gateway's config file: the `{"mcpServers": {...}}` format Claude Desktop, Cursor and others
 * read, checked once at start-up with errors that name the server, the key and the fix.
 */
import { keysOf, unknownKeyMessage } from '../util/known-keys.js';

/** A server the gateway spawns and speaks newline-delimited JSON with. */
export interface StdioUpstreamConfig {
  /** `"stdio"`, as some clients write it; optional. */
  type?: 'stdio';
  command: string;
  args?: string[];
  /** Merged over the gateway's own environment (a key given here wins; `null` removes one). */
  env?: Record<string, string | null>;
  cwd?: string;
  /**
   * `"session"` (default): one process per downstream session, so no two clients share its state.
   * `"shared"`: one process for every downstream session (see docs/gateway.md for what they share).
   */
  spawn?: 'session' | 'shared';
  /** Serve its tools as `search_tools` and `call_tool` (the tool-search transform). */
  toolSearch?: boolean;
}

/** A server reached over Streamable HTTP (or the 2024-11-05 HTTP+SSE transport). */
export interface HttpUpstreamConfig {
  /** `"http"`, `"streamable-http"` or `"sse"`, as some clients write it; optional (the client negotiates). */
  type?: 'http' | 'streamable-http' | 'sse';
  url: string;
  /** Sent on every upstream HTTP request (POST, GET, DELETE). */
  headers?: Record<string, string>;
  /** Serve its tools as `search_tools` and `call_tool` (the tool-search transform). */
  toolSearch?: boolean;
}

export type UpstreamConfig = StdioUpstreamConfig | HttpUpstreamConfig;

export interface GatewayConfig {
  mcpServers: Record<string, UpstreamConfig>;
}

const STDIO_KEYS = keysOf<StdioUpstreamConfig>({ type: true, command: true, args: true, env: true, cwd: true, spawn: true, toolSearch: true });
const HTTP_KEYS = keysOf<HttpUpstreamConfig>({ type: true, url: true, headers: true, toolSearch: true });
const TOP_KEYS = keysOf<GatewayConfig>({ mcpServers: true });
/** A name becomes the namespace of its tools and prompts: the characters a tool name allows. */
const NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

export class GatewayConfigError extends Error {
  override readonly name = 'GatewayConfigError';
}

const kind = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks a parsed config file. `source` names it in errors (a path). Every problem is a
 * `GatewayConfigError` that says where (`mcpServers.fs.args[1]`) and what to write instead.
 */
export function parseGatewayConfig(value: unknown, source = 'the config'): GatewayConfig {
  const fail = (where: string, message: string): never => {
    throw new GatewayConfigError(`${source}: ${where}${message.startsWith(':') || where === '' ? '' : ' '}${message}`.replace(': :', ':'));
  };
  if (!isObject(value)) fail('', `must be a JSON object like {"mcpServers": {"name": {"command": "…"}}} (got ${kind(value)})`);
  const top = value as Record<string, unknown>;
  for (const key of Object.keys(top)) if (!TOP_KEYS.includes(key)) fail('', unknownKeyMessage(key, 'the top level', TOP_KEYS));
  const servers = top['mcpServers'];
  if (!isObject(servers)) fail('mcpServers', `must be an object mapping a name to a server (got ${kind(servers)})`);
  const names = Object.keys(servers as object);
  if (names.length === 0) fail('mcpServers', 'names no server: add one, e.g. "fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."]}');
  const out: Record<string, UpstreamConfig> = {};
  for (const name of names) {
    const at = `mcpServers.${name}`;
    if (!NAME.test(name)) fail(at, `: the name becomes the prefix of its tools and prompts ("${name}_<tool>"), so it must start with a letter and hold only letters, digits, "_", "." and "-" (at most 64 characters)`);
    out[name] = upstreamOf((servers as Record<string, unknown>)[name], at, fail);
  }
  return { mcpServers: out };
}

function upstreamOf(value: unknown, at: string, fail: (where: string, message: string) => never): UpstreamConfig {
  const config = connectionOf(value, at, fail);
  const search = (value as Record<string, unknown>)['toolSearch'];
  if (search !== undefined) {
    if (typeof search !== 'boolean') fail(`${at}.toolSearch`, `must be true or false (got ${JSON.stringify(search)})`);
    config.toolSearch = search;
  }
  return config;
}

function connectionOf(value: unknown, at: string, fail: (where: string, message: string) => never): UpstreamConfig {
  if (!isObject(value)) return fail(at, `must be an object with "command" (stdio) or "url" (HTTP) (got ${kind(value)})`);
  const hasCommand = 'command' in value;
  const hasUrl = 'url' in value;
  if (hasCommand && hasUrl) fail(at, 'has both "command" and "url": a server is either spawned (command) or reached over HTTP (url)');
  if (!hasCommand && !hasUrl) fail(at, `needs "command" (a program to spawn) or "url" (an HTTP endpoint); it has ${Object.keys(value).map((k) => `"${k}"`).join(', ') || 'no key'}`);
  const keys = hasCommand ? STDIO_KEYS : HTTP_KEYS;
  for (const key of Object.keys(value)) if (!keys.includes(key)) fail(at, unknownKeyMessage(key, `a ${hasCommand ? 'stdio' : 'HTTP'} server`, keys).replace(/^unknown option/, ': unknown key'));
  if (hasCommand) {
    const config: StdioUpstreamConfig = { command: stringAt(value['command'], `${at}.command`, fail) };
    if (value['type'] !== undefined && value['type'] !== 'stdio') fail(`${at}.type`, `must be "stdio" for a server with "command" (got ${JSON.stringify(value['type'])})`);
    if (config.command === '') fail(`${at}.command`, 'is empty');
    if (value['args'] !== undefined) {
      if (!Array.isArray(value['args'])) fail(`${at}.args`, `must be an array of strings (got ${kind(value['args'])})`);
      config.args = (value['args'] as unknown[]).map((arg, i) => stringAt(arg, `${at}.args[${i}]`, fail));
    }
    if (value['env'] !== undefined) config.env = recordAt(value['env'], `${at}.env`, fail, true);
    if (value['cwd'] !== undefined) config.cwd = stringAt(value['cwd'], `${at}.cwd`, fail);
    if (value['spawn'] !== undefined) {
      if (value['spawn'] !== 'session' && value['spawn'] !== 'shared') fail(`${at}.spawn`, `must be "session" (a process per downstream session) or "shared" (got ${JSON.stringify(value['spawn'])})`);
      config.spawn = value['spawn'];
    }
    return config;
  }
  const url = stringAt(value['url'], `${at}.url`, fail);
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    fail(`${at}.url`, `is not a URL: ${JSON.stringify(url.slice(0, 200))}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') fail(`${at}.url`, `must be http: or https: (got ${parsed.protocol})`);
  const type = value['type'];
  if (type !== undefined && type !== 'http' && type !== 'streamable-http' && type !== 'sse') fail(`${at}.type`, `must be "http", "streamable-http" or "sse" for a server with "url" (got ${JSON.stringify(type)})`);
  const config: HttpUpstreamConfig = { url };
  if (type !== undefined) config.type = type;
  if (value['headers'] !== undefined) {
    const headers = recordAt(value['headers'], `${at}.headers`, fail, false) as Record<string, string>;
    for (const [name, header] of Object.entries(headers)) {
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) fail(`${at}.headers`, `: ${JSON.stringify(name)} is not an HTTP header name`);
      if (/[\r\n\0]/.test(header)) fail(`${at}.headers.${name}`, 'holds a line break or NUL, which no HTTP header may carry');
    }
    config.headers = headers;
  }
  return config;
}

function stringAt(value: unknown, where: string, fail: (where: string, message: string) => never): string {
  return typeof value === 'string' ? value : fail(where, `must be a string (got ${kind(value)})`);
}

function recordAt(value: unknown, where: string, fail: (where: string, message: string) => never, nullable: boolean): Record<string, string | null> {
  if (!isObject(value)) fail(where, `must be an object of strings (got ${kind(value)})`);
  const out: Record<string, string | null> = {};
  for (const [key, entry] of Object.entries(value as object)) {
    if (typeof entry === 'string' || (nullable && entry === null)) out[key] = entry as string | null;
    else fail(`${where}.${key}`, `must be a string${nullable ? ' (or null to remove the variable)' : ''} (got ${kind(entry)})`);
  }
  return out;
}

/** The environment a stdio upstream starts with: the gateway's, with the config's `env` over it. */
export function upstreamEnv(base: NodeJS.ProcessEnv, env: Record<string, string | null> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) if (value !== undefined) out[key] = value;
  for (const [key, value] of Object.entries(env ?? {})) {
    if (value === null) delete out[key];
    else out[key] = value;
  }
  return out;
}

/**
 * The MCP Server Card (experimental; SEP-2127, modelcontextprotocol/experimental-ext-server-card):
 * a public JSON document at `<endpoint>/server-card` describing the server before a client
 * connects. It is made from this server's own `server/discover` answer, so the two cannot
 * disagree on name, version, description or protocol versions.
 */
import type { ConnectionFactory, McpConnection } from '../../protocol/connection.js';
import { LATEST_VERSION } from '../../protocol/wire/versions.js';
import { httpError } from './errors.js';
import type { HttpRequest, HttpResponse, ServerCardOptions } from './types.js';
import { ErrorCode } from '../../jsonrpc/errors.js';

export type { ServerCardOptions };
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json';


type Json = Record<string, unknown>;

const NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/** Checks the options once, when the engine is made. */
export function checkServerCardOptions(options: ServerCardOptions, factory: ConnectionFactory): void {
  if (typeof options !== 'object' || options === null) throw new TypeError('serverCard must be an object such as { name: "io.github.you/weather" }');
  if (typeof options.name !== 'string' || !NAME.test(options.name) || options.name.length > 200) {
    throw new TypeError(`serverCard.name must be reverse-DNS namespace/name, e.g. "io.github.you/weather" (got ${JSON.stringify(options.name)})`);
  }
  if (options.url !== undefined && !/^https?:\/\/\S+$/.test(options.url)) throw new TypeError(`serverCard.url must be an http(s) URL (got ${JSON.stringify(options.url)})`);
  const maxAge = options.maxAgeSeconds;
  if (maxAge !== undefined && (!Number.isSafeInteger(maxAge) || maxAge < 0)) throw new TypeError(`serverCard.maxAgeSeconds must be a non-negative integer (got ${String(maxAge)})`);
  // The card requires a description; McpServer knows its own up front.
  const metadata = (factory as { getMetadata?: () => { description?: string } }).getMetadata?.();
  if (metadata !== undefined && (typeof metadata.description !== 'string' || metadata.description.length === 0 || metadata.description.length > 100)) {
    throw new TypeError('serverCard needs the server\'s description (1 to 100 characters): new McpServer({ name, version, description: "…" })');
  }
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET',
  'access-control-allow-headers': 'Content-Type',
};

/** Answers requests for `<path>/server-card`; anything else is not its business (undefined). */
export function createServerCardRoute(
  options: ServerCardOptions,
  path: string | undefined,
  discoverer: () => McpConnection,
): (request: HttpRequest) => Promise<HttpResponse> | undefined {
  const at = `${path ?? ''}/server-card`;
  const cacheControl = `public, max-age=${options.maxAgeSeconds ?? 3600}`;
  return (request) => {
    if (request.path !== at) return undefined;
    if (request.method === 'OPTIONS') return Promise.resolve({ status: 204, headers: { ...CORS, 'access-control-max-age': '600' } });
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const refused = httpError(405, ErrorCode.InvalidRequest, `Method not allowed: the server card answers GET`, { headers: { allow: 'GET, HEAD, OPTIONS', ...CORS } });
      return Promise.resolve(refused);
    }
    return card(options, discoverer()).then(
      (document) => ({
        status: 200,
        headers: { 'content-type': SERVER_CARD_MEDIA_TYPE, 'cache-control': cacheControl, ...CORS },
        body: request.method === 'HEAD' ? '' : JSON.stringify(document),
      }),
      () => httpError(500, ErrorCode.InternalError, 'Internal error: the server card could not be built'),
    );
  };
}

/** The card, from the answer this server gives `server/discover`. */
async function card(options: ServerCardOptions, connection: McpConnection): Promise<Json> {
  const answer = await connection.handleMessage(
    {
      jsonrpc: '2.0',
      id: 'server-card',
      method: 'server/discover',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': LATEST_VERSION, 'io.modelcontextprotocol/clientCapabilities': {} } },
    },
    { protocolVersion: LATEST_VERSION },
  );
  const result = (!Array.isArray(answer) && answer !== undefined && 'result' in answer ? answer.result : undefined) as Json | undefined;
  const info = (result?.['_meta'] as Json | undefined)?.[SERVER_INFO] as Json | undefined;
  if (result === undefined || info === undefined) throw new Error('server/discover gave no serverInfo');
  const pick = (key: string): Json => (info[key] === undefined ? {} : { [key]: info[key] });
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: options.name,
    version: info['version'],
    description: info['description'],
    ...pick('title'),
    ...pick('websiteUrl'),
    ...pick('icons'),
    ...(options.repository !== undefined && { repository: options.repository }),
    ...(options.url !== undefined && { remotes: [{ type: 'streamable-http', url: options.url, supportedProtocolVersions: result['supportedVersions'] }] }),
  };
}

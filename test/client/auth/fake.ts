/**
 * A deliberately small MCP server and authorization server, each on its own
 * 127.0.0.1 port (two origins), whose every answer a test can replace: the
 * hostile half of the OAuth client's tests. Every request either receives is
 * recorded, so a test can show that nothing reached a host it should not.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  path: string;
  authorization: string | undefined;
  body: string;
}

export interface FakeServer {
  url: string;
  seen: Seen[];
  /** Replaces the answer for a path (exact pathname match); return undefined to fall through to the default. */
  routes: Map<string, (req: IncomingMessage, body: string, res: ServerResponse) => void>;
  close(): Promise<void>;
}

async function start(fallback: (req: IncomingMessage, body: string, res: ServerResponse, self: FakeServer) => void): Promise<FakeServer> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const self: FakeServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen: [],
    routes: new Map(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', self.url).pathname;
      self.seen.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body });
      const route = self.routes.get(path);
      if (route !== undefined) route(req, body, res);
      else fallback(req, body, res, self);
    });
  });
  return self;
}

export function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
}

/** An MCP endpoint at /mcp accepting `Bearer good*` tokens; PRM at the path-aware URL naming `issuer()`. */
export async function startFakeMcp(issuer: () => string, options: { needScope?: string } = {}): Promise<FakeServer> {
  return start((req, body, res, self) => {
    const path = new URL(req.url ?? '/', self.url).pathname;
    if (req.method === 'GET' && path === '/.well-known/oauth-protected-resource/mcp') {
      json(res, 200, { resource: `${self.url}/mcp`, authorization_servers: [issuer()], scopes_supported: ['mcp:read'] });
      return;
    }
    if (path !== '/mcp' || req.method !== 'POST') return json(res, 404, { error: 'not_found' });
    const token = req.headers.authorization?.startsWith('Bearer good') === true ? req.headers.authorization.slice(7) : undefined;
    const challenge = `Bearer resource_metadata="${self.url}/.well-known/oauth-protected-resource/mcp", scope="mcp:read"`;
    if (token === undefined) return json(res, 401, { error: 'invalid_token' }, { 'www-authenticate': challenge });
    const message = JSON.parse(body) as { id?: number; method: string };
    if (options.needScope !== undefined && message.method === 'tools/list' && !token.includes(options.needScope)) {
      return json(res, 403, { error: 'insufficient_scope' }, { 'www-authenticate': `Bearer error="insufficient_scope", scope="${options.needScope}", resource_metadata="${self.url}/.well-known/oauth-protected-resource/mcp"` });
    }
    if (message.id === undefined) return void res.writeHead(202).end();
    const result =
      message.method === 'initialize'
        ? { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'fake', version: '1.0.0' } }
        : message.method === 'tools/list'
          ? { tools: [] }
          : {};
    json(res, 200, { jsonrpc: '2.0', id: message.id, result });
  });
}

/** An authorization server: RFC 8414 metadata, /authorize redirecting at once with code, state and iss, /token, /register. */
export async function startFakeAs(options: { grantedScope?: (asked: string) => string } = {}): Promise<FakeServer> {
  return start((req, body, res, self) => {
    const url = new URL(req.url ?? '/', self.url);
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      return json(res, 200, {
        issuer: self.url,
        authorization_endpoint: `${self.url}/authorize`,
        token_endpoint: `${self.url}/token`,
        registration_endpoint: `${self.url}/register`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
        authorization_response_iss_parameter_supported: true,
      });
    }
    if (url.pathname === '/authorize') {
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', 'the-code');
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      back.searchParams.set('iss', self.url);
      return void res.writeHead(302, { location: back.href }).end();
    }
    if (url.pathname === '/register') return json(res, 201, { client_id: 'registered-client' });
    if (url.pathname === '/token') {
      const asked = new URLSearchParams(body).get('scope') ?? '';
      const scope = options.grantedScope?.(asked) ?? asked;
      return json(res, 200, { access_token: `good ${scope}`.replace(/ /g, '_'), token_type: 'Bearer', expires_in: 3600, scope });
    }
    json(res, 404, { error: 'not_found' });
  });
}

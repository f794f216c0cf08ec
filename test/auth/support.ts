/** A protected mcpkit server and the test authorization server, started together on 127.0.0.1. */
import { jwtVerifier } from '../../src/auth.js';
import type { AuthOptions } from '../../src/transports/http/auth/types.js';
import { listen, type ListenOptions, type McpHttpListener } from '../../src/http.js';
import { McpServer, type McpServerConfig } from '../../src/server/server.js';
import { startAuthServer, type TestAuthServer } from './as.js';

export { post, postHeaders, readEvents, rpc, initializeBody, PROTOCOL, messages } from '../transports/http/support.js';

/** Tools with and without scopes; `whoami` shows what handlers see. */
export function protectedServer(logger?: McpServerConfig['logger']): McpServer {
  const server = new McpServer({ name: 'auth-test', version: '1.0.0', ...(logger === undefined ? {} : { logger }) });
  server.tool('whoami', { description: 'Who is calling' }, (_args, ctx) => ({
    content: [{ type: 'text', text: JSON.stringify({ auth: ctx.auth, authInfo: ctx.authInfo, hasWrite: ctx.auth?.hasScopes('files:write') ?? false }) }],
  }));
  server.tool('token_length', { description: 'Proves the accessor exists' }, (_args, ctx) => `${ctx.accessToken()?.length ?? 0}`);
  server.tool('write_file', { description: 'Writes', scopes: ['files:write'] }, () => 'written');
  server.tool('admin_wipe', { description: 'Needs two scopes', scopes: ['files:write', 'admin'] }, () => 'wiped');
  server.tool('chatty_write', { description: 'Logs before its result', scopes: ['files:write'] }, async (_args, ctx) => {
    await ctx.log('info', 'about to write');
    return 'written';
  });
  server.prompt('secret_prompt', { scopes: ['prompts:secret'] }, () => 'the secret prompt');
  server.resource('file:///secret.txt', { scopes: ['files:read'] }, () => 'secret');
  server.resource('file:///public.txt', {}, () => 'public');
  server.resourceTemplate('file:///private/{name}', { scopes: ['files:read'] }, (uri) => `private ${uri}`);
  return server;
}

export interface Fixture {
  as: TestAuthServer;
  mcp: McpHttpListener;
  /** A token for this server's resource with these scopes (space-separated). */
  token(scope?: string, claims?: Parameters<TestAuthServer['token']>[0]): Promise<string>;
  close(): Promise<void>;
}

export async function startProtected(
  options: Partial<AuthOptions> & { listen?: ListenOptions; server?: McpServer } = {},
): Promise<Fixture> {
  const as = await startAuthServer();
  const { listen: listenOptions, server, ...auth } = options;
  const mcp = await listen(server ?? protectedServer(), {
    keepAliveMs: 0,
    ...listenOptions,
    auth: { authorizationServers: [as.issuer], verify: jwtVerifier(), ...auth },
  } as ListenOptions);
  return {
    as,
    mcp,
    token: (scope, claims) => as.token({ aud: mcp.url, ...(scope === undefined ? {} : { scope }), ...claims }),
    async close() {
      await mcp.close({ graceMs: 0 });
      await as.close();
    },
  };
}

export interface ChallengeParams {
  error?: string;
  error_description?: string;
  scope?: string;
  resource_metadata?: string;
}

/** The parameters of a `WWW-Authenticate: Bearer …` header. */
export function challengeParams(header: string | null): ChallengeParams {
  if (header === null) throw new Error('no WWW-Authenticate header');
  expectBearer(header);
  const params: Record<string, string> = {};
  for (const match of header.slice('Bearer '.length).matchAll(/([a-z_]+)="([^"]*)"/g)) params[match[1]!] = match[2]!;
  return params;
}

function expectBearer(header: string): void {
  if (!header.startsWith('Bearer ')) throw new Error(`not a Bearer challenge: ${header}`);
}

export function bearer(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${token}`, ...extra };
}

/** A JSON-RPC answer as the assertions read it. */
export interface Answer {
  id: unknown;
  result: {
    content: { type: string; text: string }[];
    tools: { name: string }[];
    contents: { text: string }[];
    protocolVersion: string;
    [key: string]: unknown;
  };
  error: { code: number; message: string };
}

export async function answer(response: Response): Promise<Answer> {
  return (await response.json()) as Answer;
}

/** The text of a tool result's first content block. */
export async function toolText(response: Response): Promise<string> {
  return (await answer(response)).result.content[0]!.text;
}

/** A JSON document (metadata) read field by field. */
export async function document(response: Response): Promise<{ resource: string; [key: string]: unknown }> {
  return (await response.json()) as { resource: string };
}

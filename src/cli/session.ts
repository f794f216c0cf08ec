/** Opens a `mcpkit/client` Client on a command's target, runs `work`, and always closes it. */
import { Client, loopbackAuthorizer, McpAuthError, McpError, McpTransportError, oauth, StdioClientTransport, type ClientOptions, type ElicitationHandler, type HttpAuthProvider } from '../client.js';
import { CliError, Exit, usage } from './errors.js';
import type { Json } from './json.js';
import { readPackage } from './package-root.js';
import { openTransport, strictStdout, type OpenOptions } from './target.js';

export type Era = 'auto' | 'legacy' | '2026-07-28';

/** The tasks extension: the CLI awaits a task itself (see tasks.ts), so it declares it on 2026-07-28. */
export const TASKS = 'io.modelcontextprotocol/tasks';

/** The options of every command that talks to a server. */
export const TARGET_OPTIONS = {
  era: { type: 'string' },
  header: { type: 'string', multiple: true },
  verbose: { type: 'boolean' },
} as const;

/** `call` and `inspect`: signing in with OAuth (docs/cli.md). */
export const OAUTH_OPTIONS = {
  oauth: { type: 'boolean' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  scope: { type: 'string', multiple: true },
} as const;

export const OAUTH_HELP = `--oauth          sign in when the server answers 401 with an OAuth challenge: the
                   authorization URL is printed on stderr, the redirect is awaited on
                   127.0.0.1; tokens are kept in memory for this run only
  --client-id ID   a client registered beforehand (default: dynamic registration)
  --client-secret S  its secret, if it has one
  --scope S        a scope to ask for besides the server's (repeatable)`;

/** What the OAuth flags ask for; undefined without --oauth. */
export interface OAuthFlags {
  clientId?: string;
  clientSecret?: string;
  scopes: string[];
}

export function oauthOf(values: { oauth?: boolean; 'client-id'?: string; 'client-secret'?: string; scope?: string[] }, target: string, headers: Record<string, string>): OAuthFlags | undefined {
  if (values.oauth !== true) {
    if (values['client-id'] !== undefined || values['client-secret'] !== undefined || values.scope !== undefined) throw usage('--client-id, --client-secret and --scope go with --oauth');
    return undefined;
  }
  if (!/^https?:\/\//i.test(target)) throw usage('--oauth needs an http(s) URL target (a server file on stdio has no authorization)');
  if (headers['authorization'] !== undefined) throw usage('give either --oauth or an Authorization --header, not both');
  if (values['client-secret'] !== undefined && values['client-id'] === undefined) throw usage('--client-secret needs --client-id');
  return {
    ...(values['client-id'] === undefined ? {} : { clientId: values['client-id'] }),
    ...(values['client-secret'] === undefined ? {} : { clientSecret: values['client-secret'] }),
    scopes: (values.scope ?? []).flatMap((s) => s.split(/\s+/)).filter((s) => s !== ''),
  };
}

export const ERA_HELP = '--era E          auto (default: 2026-07-28 when the server speaks it, else legacy) | legacy | 2026-07-28';

export function eraOf(value: string | undefined): Era {
  if (value === undefined || value === 'auto' || value === 'legacy' || value === '2026-07-28') return value ?? 'auto';
  throw usage(`--era must be auto, legacy or 2026-07-28, got "${value}"`);
}

/** `--header 'Name: value'` options as a header record. */
export function headersOf(values: string[] | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const h of values ?? []) {
    const colon = h.indexOf(':');
    if (colon <= 0) throw usage(`--header must look like "Name: value", got "${h}"`);
    headers[h.slice(0, colon).trim().toLowerCase()] = h.slice(colon + 1).trim();
  }
  return headers;
}

export interface SessionHandlers {
  /** Answers `elicitation/create` (a server request on a legacy session, an input request on 2026-07-28). */
  elicit?: (params: Json) => Promise<Json>;
  /** Every notification the server sends (progress, log messages, list changes). */
  notification?: (method: string, params: Json) => void;
}

export interface Connected {
  era: 'legacy' | 'modern';
  protocolVersion: string;
  /** The `initialize` result (legacy) or the `server/discover` result (modern). */
  hello: Json;
}

/** What the server answered, as a CliError with the documented exit code (docs/cli.md). */
export function cliErrorOf(error: unknown): unknown {
  if (error instanceof CliError) return error;
  if (error instanceof McpError) {
    const data = error.data === undefined ? '' : `\n${JSON.stringify(error.data, null, 2)}`;
    return new CliError(`error ${error.code}: ${error.message}${data}`, Exit.PROTOCOL);
  }
  if (error instanceof McpAuthError) return new CliError(`authorization failed: ${error.message}`, Exit.PROTOCOL);
  if (error instanceof McpTransportError) {
    const unreachable = error.kind === 'unreachable' || error.kind === 'closed';
    const message = error.message + (error.wwwAuthenticate !== undefined && !error.message.includes(error.wwwAuthenticate) ? `\nWWW-Authenticate: ${error.wwwAuthenticate}` : '');
    // An entry that exits at once, silently, most often exported nothing and served nothing.
    const hint = /exited \(code 0\)$/.test(message)
      ? '\nDoes the entry export its server (`export default server`, `export const server` or `export function createServer()`), or serve stdio itself?'
      : error.status === 401 && error.wwwAuthenticate !== undefined && /^\s*bearer\b/i.test(error.wwwAuthenticate)
        ? '\nThe server asks for OAuth: run again with --oauth to sign in (or give --header "Authorization: Bearer …").'
        : '';
    return new CliError(`${message}${hint}`, unreachable ? Exit.UNREACHABLE : Exit.PROTOCOL);
  }
  return error;
}

export async function withClient<T>(
  target: string,
  options: OpenOptions & { era: Era; handlers?: SessionHandlers; oauth?: OAuthFlags | undefined },
  work: (client: Client, connected: Connected) => Promise<T>,
): Promise<T> {
  const handlers = options.handlers ?? {};
  const elicit = handlers.elicit;
  const clientOptions: ClientOptions = {
    clientInfo: { name: 'mcpkit-cli', version: readPackage().version },
    protocolVersion: options.era === 'legacy' ? '2025-11-25' : options.era,
    // A CLI call waits as long as the tool takes: Ctrl-C ends it.
    requestTimeoutMs: 0,
    capabilities: { extensions: { [TASKS]: {} } },
    ...(elicit === undefined ? {} : { elicitation: terminalHandler(elicit) }),
  };
  const client = new Client(clientOptions);
  if (handlers.notification !== undefined) {
    const notify = handlers.notification;
    client.on('*', ({ method, ...params }) => notify(String(method), params));
  }
  // Tokens live in this process only (oauth()'s default MemoryTokenStore); the loopback server closes at the end.
  const authorizer = options.oauth === undefined ? undefined : loopbackAuthorizer({ open: (url) => void process.stderr.write(`Open this URL to authorize:\n  ${url.href}\n`), timeoutMs: 600_000 });
  let auth: HttpAuthProvider | undefined;
  if (authorizer !== undefined && options.oauth !== undefined) {
    const { clientId, clientSecret, scopes } = options.oauth;
    auth = oauth({
      authorizer,
      clientName: 'mcpkit CLI',
      ...(scopes.length === 0 ? {} : { scopes }),
      ...(clientId === undefined ? {} : { preRegistered: { clientId, ...(clientSecret === undefined ? {} : { clientSecret }) } }),
    });
  }
  const inner = openTransport(target, { ...options, ...(auth === undefined ? {} : { auth }) });
  // A fatal fault the client would put up with (stdout garbage) ends the command at once.
  let fatal!: (error: CliError) => void;
  const failed = new Promise<never>((_, reject) => (fatal = reject));
  failed.catch(() => undefined);
  const transport = inner instanceof StdioClientTransport ? strictStdout(inner, fatal) : inner;
  try {
    const connected = await Promise.race([connect(client, transport), failed]);
    return await Promise.race([work(client, connected), failed]);
  } catch (error) {
    throw cliErrorOf(error);
  } finally {
    await client.close();
    await authorizer?.close();
  }
}

/** The CLI's prompt reads the wire shape as it is; the client checks the answer against the requested schema. */
function terminalHandler(elicit: (params: Json) => Promise<Json>): ElicitationHandler {
  return async (params) => (await elicit(params as unknown as Json)) as unknown as Awaited<ReturnType<ElicitationHandler>>;
}

async function connect(client: Client, transport: Parameters<Client['connect']>[0]): Promise<Connected> {
  await client.connect(transport);
  const modern = client.era === 'modern';
  const hello: Json = modern
    ? { ...client.discoverResult }
    : {
        protocolVersion: client.protocolVersion,
        capabilities: client.serverCapabilities,
        serverInfo: client.serverInfo,
        ...(client.instructions === undefined ? {} : { instructions: client.instructions }),
      };
  return { era: modern ? 'modern' : 'legacy', protocolVersion: String(client.protocolVersion), hello };
}

import { McpServer, StdioTransport } from '../../index.js';
import { listen } from '../../http.js';
import { addOpenApiTools, loadOpenApiDocument, OpenApiError, type OpenApiCredential, type OperationFilter } from '../../openapi.js';
import { parse, portOf } from '../args.js';
import { CliError, Exit, usage } from '../errors.js';
import { onShutdown } from '../lifecycle.js';

export const help = `usage: mcpkit openapi <file|url> --base-url <url> [--stdio | --port N] [options]

Serves an OpenAPI 3.0/3.1 document (JSON or YAML) as an MCP server: one tool per
operation (docs/openapi.md). Requests go to --base-url's origin only.

  --base-url URL            where the API is (its path goes before every operation path)
  --stdio                   serve on stdin/stdout instead of HTTP
  --port N                  HTTP port (default: $PORT, else 3000; 0 picks a free port)
  --host H                  interface to bind (default 127.0.0.1)
  --include-tags a,b        keep operations with one of these tags
  --exclude-tags a,b        drop operations with one of these tags
  --include-operations x,y  keep only these operationIds (or derived tool names)
  --exclude-operations x,y  drop these
  --header "Name: value"    send this header with every request (repeatable)
  --credential SCHEME=ENV   the credential for a security scheme, read from the
                            environment variable ENV (basic: "user:password")
  --resources               GETs without parameters as resources, GETs with only
                            path parameters as resource templates (default: tools)
  --timeout-ms N            per request (default 30000)
  --max-response-bytes N    largest response read (default 5 MiB)

The MCP client's own token is never sent to the API.`;

const list = (values: string[] | undefined): string[] | undefined => (values === undefined ? undefined : values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== ''));

function integer(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw usage(`${flag} must be a positive integer, got "${value}"`);
  return n;
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse('openapi', argv, {
    'base-url': { type: 'string' },
    stdio: { type: 'boolean' },
    port: { type: 'string' },
    host: { type: 'string' },
    'include-tags': { type: 'string', multiple: true },
    'exclude-tags': { type: 'string', multiple: true },
    'include-operations': { type: 'string', multiple: true },
    'exclude-operations': { type: 'string', multiple: true },
    header: { type: 'string', multiple: true },
    credential: { type: 'string', multiple: true },
    'timeout-ms': { type: 'string' },
    'max-response-bytes': { type: 'string' },
    resources: { type: 'boolean' },
  });
  const [source, extra] = positionals;
  if (source === undefined || extra !== undefined) throw usage('give one document: mcpkit openapi <file|url> --base-url <url> (run: mcpkit openapi --help)');
  const baseUrl = values['base-url'];
  if (baseUrl === undefined) throw usage('--base-url is required: the API every request goes to (the document\'s "servers" are never followed on their own)');
  const port = portOf(values.port ?? process.env['PORT'], 3000);

  const headers: Record<string, string> = {};
  for (const header of values.header ?? []) {
    const at = header.indexOf(':');
    if (at <= 0) throw usage(`--header must be "Name: value", got "${header}"`);
    headers[header.slice(0, at).trim()] = header.slice(at + 1).trim();
  }
  const credentials: Record<string, OpenApiCredential> = {};
  for (const entry of values.credential ?? []) {
    const [scheme, variable] = entry.split('=', 2);
    if (scheme === undefined || scheme === '' || variable === undefined || variable === '') throw usage(`--credential must be SCHEME=ENV_VAR, got "${entry}"`);
    const secret = process.env[variable];
    if (secret === undefined || secret === '') throw usage(`--credential ${entry}: the environment variable ${variable} is not set`);
    credentials[scheme] = secret;
  }
  const include: { tags?: string[]; operations?: string[] } = {};
  const includeTags = list(values['include-tags']);
  const includeOps = list(values['include-operations']);
  if (includeTags !== undefined) include.tags = includeTags;
  if (includeOps !== undefined) include.operations = includeOps;
  const excludeTags = list(values['exclude-tags']) ?? [];
  const excludeOps = list(values['exclude-operations']) ?? [];
  const exclude: OperationFilter = (op) => op.tags.some((t) => excludeTags.includes(t)) || (op.operationId !== undefined && excludeOps.includes(op.operationId));

  const server = new McpServer({ name: 'openapi', version: '1.0.0' });
  let count: number;
  let title = source;
  try {
    const doc = await loadOpenApiDocument(source);
    const info = doc.root['info'] as { title?: unknown } | undefined;
    if (typeof info?.title === 'string') title = info.title;
    const timeoutMs = integer(values['timeout-ms'], '--timeout-ms');
    const maxResponseBytes = integer(values['max-response-bytes'], '--max-response-bytes');
    // Credentials whose scheme the document declares; a scheme name that does not exist is an OpenApiError below.
    const tools = await addOpenApiTools(server, doc, {
      baseUrl,
      ...(Object.keys(include).length > 0 && { include }),
      exclude,
      headers,
      credentials,
      ...(timeoutMs !== undefined && { timeoutMs }),
      ...(maxResponseBytes !== undefined && { maxResponseBytes }),
      ...(values.resources === true && { routes: 'resources' as const }),
    });
    count = tools.length + server.resources.list().length + server.resources.templates.list().length;
  } catch (error) {
    if (error instanceof OpenApiError) throw new CliError(error.message, Exit.USAGE);
    throw error;
  }
  if (count === 0) console.error('mcpkit openapi: warning: no operation is kept (check --include-tags / --include-operations)');

  if (values.stdio) {
    onShutdown(() => server.stop());
    const transport = new StdioTransport();
    await server.connect(transport);
    console.error(`mcpkit openapi: ${count} tools from "${title}" on stdio → ${baseUrl}`);
    return new Promise<number>((resolve) => {
      const closed = transport.onclose;
      transport.onclose = () => {
        closed?.();
        resolve(Exit.OK);
      };
    });
  }
  const listener = await listen(server, { port, host: values.host ?? '127.0.0.1', legacySse: true });
  onShutdown(() => listener.close());
  console.error(`mcpkit openapi: ${count} tools from "${title}" on ${listener.url} → ${baseUrl}`);
  return new Promise<number>((resolve) => listener.server.once('close', () => resolve(Exit.OK)));
}

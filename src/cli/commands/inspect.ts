import { parse } from '../args.js';
import { str } from '../text.js';
import type { Json } from '../json.js';
import { usage } from '../errors.js';
import { ERA_HELP, OAUTH_HELP, OAUTH_OPTIONS, TARGET_OPTIONS, eraOf, headersOf, oauthOf, withClient } from '../session.js';

export const help = `usage: mcpkit inspect <entry|url> [--json] [options]

Prints a server's surface: name and version, protocol revision, capabilities,
instructions, tools (with their arguments), resources, resource templates and
prompts, and (2026-07-28) the server/discover answer. The output is
deterministic (listing order is the server's; nothing per-response such as
cache hints is kept), so --json works as a CI snapshot:

  npx mcpkit inspect src/server.js --json > mcp-surface.json && git diff --exit-code mcp-surface.json

  --json           JSON instead of the human summary
  ${ERA_HELP}
  --header 'K: V'  an extra HTTP header (repeatable)
  ${OAUTH_HELP}
  --verbose        show the entry's stderr

exit codes: 0 ok · 2 usage · 3 JSON-RPC error or HTTP refusal · 4 server unreachable · 5 other failure`;

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/** A result without what varies per response (result type, cache hints, serverInfo in _meta). */
function surfaceOf(result: Json): Json {
  const { resultType: _r, ttlMs: _t, cacheScope: _c, _meta, ...rest } = result;
  const meta = { ...(_meta as Json | undefined) };
  delete meta[SERVER_INFO];
  return Object.keys(meta).length ? { ...rest, _meta: meta } : rest;
}

export interface Surface {
  era: 'legacy' | 'modern';
  protocolVersion: string;
  serverInfo: Json | undefined;
  instructions: string | undefined;
  capabilities: Json;
  tools: Json[];
  resources: Json[];
  resourceTemplates: Json[];
  prompts: Json[];
  initialize?: Json;
  discover?: Json;
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse('inspect', argv, { json: { type: 'boolean' }, ...TARGET_OPTIONS, ...OAUTH_OPTIONS });
  const [target, extra] = positionals;
  if (target === undefined || extra !== undefined) throw usage('expected exactly one <entry|url> (run: mcpkit inspect --help)');
  const headers = headersOf(values.header);
  const surface = await withClient(
    target,
    { era: eraOf(values.era), headers, oauth: oauthOf(values, target, headers), ...(values.verbose === undefined ? {} : { verbose: values.verbose }) },
    async (client, connected): Promise<Surface> => {
      const hello = connected.hello;
      const capabilities = (hello['capabilities'] ?? {}) as Json;
      const has = (name: string) => capabilities[name] !== undefined;
      const meta = hello['_meta'] as Json | undefined;
      return {
        era: connected.era,
        protocolVersion: connected.protocolVersion,
        serverInfo: (hello['serverInfo'] ?? meta?.[SERVER_INFO]) as Json | undefined,
        instructions: hello['instructions'] as string | undefined,
        capabilities,
        tools: has('tools') ? await all(client.tools()) : [],
        resources: has('resources') ? await all(client.resources()) : [],
        resourceTemplates: has('resources') ? await all(client.resourceTemplates()) : [],
        prompts: has('prompts') ? await all(client.prompts()) : [],
        ...(connected.era === 'modern' ? { discover: surfaceOf(hello) } : { initialize: surfaceOf(hello) }),
      };
    },
  );
  console.log(values.json ? JSON.stringify(surface, null, 2) : summary(surface));
  return 0;
}

async function all(items: AsyncIterable<object>): Promise<Json[]> {
  const out: Json[] = [];
  for await (const item of items) out.push(item as Json);
  return out;
}

const typeName = (schema: Json | undefined): string => {
  if (!schema) return 'any';
  if (Array.isArray(schema['enum'])) return (schema['enum'] as unknown[]).map((v) => JSON.stringify(v)).join('|');
  const type = schema['type'];
  if (type === 'array') return `${typeName(schema['items'] as Json | undefined)}[]`;
  if (Array.isArray(type)) return type.join('|');
  if (typeof type === 'string') return type;
  for (const key of ['anyOf', 'oneOf']) if (Array.isArray(schema[key])) return (schema[key] as Json[]).map(typeName).join('|');
  return 'any';
};

function toolLine(tool: Json): string {
  const schema = (tool['inputSchema'] ?? {}) as Json;
  const required = new Set((schema['required'] ?? []) as string[]);
  const args = Object.entries((schema['properties'] ?? {}) as Record<string, Json>).map(([name, p]) => {
    const dflt = p['default'] === undefined ? '' : ` = ${JSON.stringify(p['default'])}`;
    return `${name}${required.has(name) ? '' : '?'}: ${typeName(p)}${dflt}`;
  });
  const task = (tool['execution'] as Json | undefined)?.['taskSupport'];
  return `  ${str(tool['name'])}(${args.join(', ')})${task && task !== 'forbidden' ? ` [task: ${str(task)}]` : ''}${tool['description'] ? `\n      ${str(tool['description'])}` : ''}`;
}

function capabilityList(capabilities: Json): string {
  return Object.keys(capabilities).map((name) => {
    const flags = Object.entries((capabilities[name] ?? {}) as Json).filter(([, v]) => v === true).map(([k]) => k);
    const keys = name === 'extensions' ? Object.keys((capabilities[name] ?? {})) : flags;
    return keys.length ? `${name} (${keys.join(', ')})` : name;
  }).join(', ') || 'none';
}

function resourceLine(r: Json, key: 'uri' | 'uriTemplate'): string {
  const name = r['name'] !== undefined && r['name'] !== r[key] ? `  "${str(r['name'])}"` : '';
  const description = r['description'] ? `\n      ${str(r['description'])}` : '';
  return `  ${str(r[key])}${r['mimeType'] ? `  ${str(r['mimeType'])}` : ''}${name}${description}`;
}

export function summary(s: Surface): string {
  const out: string[] = [];
  const info = s.serverInfo ?? {};
  out.push(`${str(info['name'] ?? '(unnamed server)')} ${str(info['version'] ?? '')}`.trimEnd());
  const versions = s.discover?.['supportedVersions'];
  out.push(`protocol: ${s.protocolVersion} (${s.era})${Array.isArray(versions) ? `; server/discover lists ${versions.join(', ')}` : ''}`);
  out.push(`capabilities: ${capabilityList(s.capabilities)}`);
  if (s.instructions) out.push(`instructions: ${s.instructions}`);
  out.push('', `tools (${s.tools.length})`, ...s.tools.map(toolLine));
  out.push('', `resources (${s.resources.length})`, ...s.resources.map((r) => resourceLine(r, 'uri')));
  out.push('', `resource templates (${s.resourceTemplates.length})`, ...s.resourceTemplates.map((r) => resourceLine(r, 'uriTemplate')));
  out.push('', `prompts (${s.prompts.length})`, ...s.prompts.map((p) => {
    const args = ((p['arguments'] ?? []) as Json[]).map((a) => `${str(a['name'])}${a['required'] ? '' : '?'}`);
    return `  ${str(p['name'])}(${args.join(', ')})${p['description'] ? `\n      ${str(p['description'])}` : ''}`;
  }));
  return out.join('\n');
}

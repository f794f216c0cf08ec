import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parse } from '../args.js';
import type { Json } from '../json.js';
import { CliError, Exit, usage } from '../errors.js';
import { ERA_HELP, TARGET_OPTIONS, eraOf, headersOf, withClient } from '../session.js';
import { isUrl } from '../target.js';

/** The MCP Registry's server.json schema this command writes (test/registry/ holds a copy). */
export const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

export const help = `usage: mcpkit server-json <entry|url> [--package FILE] [--name N] [--remote URL…] [--out FILE]

Prints the server.json the MCP Registry publishes (schema 2025-12-11), built from
package.json (name, version, description, repository, homepage, mcpName) and what
the server says about itself (title, description, website, icons, version):

  npx mcpkit server-json src/server.js --out server.json && npx mcp-publisher publish

  --package FILE   the package.json to read (default: the nearest one above the entry, or ./package.json)
  --name N         the registry name, e.g. io.github.you/weather (default: package.json "mcpName")
  --remote URL     a Streamable HTTP endpoint where the server is hosted (repeatable)
  --out FILE       write the file instead of printing it
  ${ERA_HELP}
  --header 'K: V'  an extra HTTP header (repeatable)
  --verbose        show the entry's stderr

The npm package is listed (stdio, run with npx) when package.json has a "bin" and is
not private. The registry checks that the npm package's package.json has the same
"mcpName": set it there rather than passing --name.

exit codes: 0 ok · 2 usage or a field the registry would refuse · 3 JSON-RPC error · 4 server unreachable · 5 other failure`;

interface PackageInfo {
  name?: string;
  version?: string;
  description?: string;
  homepage?: string;
  private?: boolean;
  bin?: unknown;
  mcpName?: string;
  repository?: string | { url?: string; directory?: string };
}

const NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

function findPackage(start: string): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'package.json');
    if (dirname(dir) === dir) return undefined;
  }
}

function readPackageFile(path: string): PackageInfo {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as PackageInfo;
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`, Exit.FAILURE);
  }
}

/** package.json `repository` as the registry wants it (GitHub and GitLab; others are left out). */
function repositoryOf(repository: PackageInfo['repository']): Json | undefined {
  const raw = typeof repository === 'string' ? repository : repository?.url;
  if (raw === undefined) return undefined;
  const shorthand = /^(github|gitlab):([\w.-]+\/[\w.-]+)$/.exec(raw) ?? (/^([\w.-]+\/[\w.-]+)$/.test(raw) ? [raw, 'github', raw] : undefined);
  const url = shorthand ? `https://${shorthand[1]}.com/${shorthand[2]}` : raw.replace(/^git\+/, '').replace(/^git:\/\//, 'https://').replace(/^git@([^:]+):/, 'https://$1/').replace(/\.git$/, '');
  const host = /^https:\/\/(github\.com|gitlab\.com)\/[\w.-]+\/[\w.-]+/.exec(url)?.[1];
  if (host === undefined) return undefined;
  const directory = typeof repository === 'object' ? repository.directory : undefined;
  return { url, source: host.split('.')[0]!, ...(directory ? { subfolder: directory } : {}) };
}

function checkLength(field: string, value: string, max: number, where: string): void {
  if (value.length === 0 || value.length > max) {
    throw usage(`${field} must be 1 to ${max} characters for the registry (${where} has ${value.length}): shorten it`);
  }
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse('server-json', argv, {
    package: { type: 'string' },
    name: { type: 'string' },
    remote: { type: 'string', multiple: true },
    out: { type: 'string' },
    ...TARGET_OPTIONS,
  });
  const [target, extra] = positionals;
  if (target === undefined || extra !== undefined) throw usage('expected exactly one <entry|url> (run: mcpkit server-json --help)');
  const packagePath = values.package !== undefined ? resolve(values.package) : findPackage(isUrl(target) ? process.cwd() : dirname(resolve(target)));
  if (packagePath === undefined || !existsSync(packagePath)) throw usage(`no package.json found${values.package ? ` at ${values.package}` : ' above the entry'}: pass --package FILE`);
  const pkg = readPackageFile(packagePath);
  const where = relative(process.cwd(), packagePath) || packagePath;

  const info = await withClient(
    target,
    { era: eraOf(values.era), headers: headersOf(values.header), ...(values.verbose === undefined ? {} : { verbose: values.verbose }) },
    (_client, connected) => {
      const hello = connected.hello;
      const meta = hello['_meta'] as Json | undefined;
      return Promise.resolve((hello['serverInfo'] ?? meta?.['io.modelcontextprotocol/serverInfo'] ?? {}) as Json);
    },
  );

  const name = values.name ?? pkg.mcpName;
  if (name === undefined) throw usage(`${where} has no "mcpName": add "mcpName": "io.github.<you>/<server>" (the registry checks it on the npm package), or pass --name`);
  if (!NAME.test(name) || name.length > 200) throw usage(`"${name}" is not a registry name: write namespace/name in reverse-DNS form, e.g. io.github.you/weather`);
  const version = pkg.version ?? (info['version'] as string | undefined);
  if (version === undefined) throw usage(`${where} has no "version"`);
  if (typeof info['version'] === 'string' && info['version'] !== version) {
    throw usage(`${where} says version ${version} but the server says ${info['version']}: give McpServer the package's version so both agree`);
  }
  const description = pkg.description ?? (info['description'] as string | undefined);
  if (description === undefined) throw usage(`no description: add "description" to ${where} (at most 100 characters)`);
  checkLength('the description', description, 100, pkg.description !== undefined ? `${where} "description"` : "the server's description");
  const title = info['title'] as string | undefined;
  if (title !== undefined) checkLength('the title', title, 100, "the server's title");
  const icons = (Array.isArray(info['icons']) ? (info['icons'] as Json[]) : []).filter((icon) => {
    const ok = typeof icon['src'] === 'string' && icon['src'].startsWith('https://') && icon['src'].length <= 255;
    if (!ok) console.error(`mcpkit server-json: left out icon ${JSON.stringify(icon['src'])}: the registry takes https:// URLs of at most 255 characters`);
    return ok;
  });
  const remotes = (values.remote ?? []).map((url) => {
    if (!/^https?:\/\/\S+$/.test(url)) throw usage(`--remote must be an http(s) URL, got "${url}"`);
    return { type: 'streamable-http', url };
  });
  const npm = pkg.name !== undefined && pkg.private !== true && pkg.bin !== undefined;
  if (!npm && remotes.length === 0) console.error('mcpkit server-json: no way to run the server is listed: publish a package with a "bin" or pass --remote URL');

  const repository = repositoryOf(pkg.repository);
  const websiteUrl = (info['websiteUrl'] as string | undefined) ?? pkg.homepage;
  const document: Json = {
    $schema: SERVER_JSON_SCHEMA,
    name,
    ...(title !== undefined && { title }),
    description,
    version,
    ...(websiteUrl !== undefined && { websiteUrl }),
    ...(repository !== undefined && { repository }),
    ...(icons.length > 0 && { icons }),
    ...(npm && { packages: [{ registryType: 'npm', identifier: pkg.name, version, runtimeHint: 'npx', transport: { type: 'stdio' } }] }),
    ...(remotes.length > 0 && { remotes }),
  };
  const text = `${JSON.stringify(document, null, 2)}\n`;
  if (values.out === undefined) process.stdout.write(text);
  else {
    try {
      writeFileSync(values.out, text);
    } catch (error) {
      throw new CliError(`cannot write ${values.out}: ${(error as Error).message}`, Exit.FAILURE);
    }
    console.error(`mcpkit server-json: wrote ${values.out}`);
  }
  return Exit.OK;
}

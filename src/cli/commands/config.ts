import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parse } from '../args.js';
import { CliError, Exit, usage } from '../errors.js';
import { lineDiff } from '../diff.js';
import { BIN } from '../package-root.js';
import { entryPath, isUrl } from '../target.js';

export const help = `usage: mcpkit config <client> <entry|url|demo|npm:PACKAGE> [--prod] [--env KEY=VALUE…] [--name N] [--write [--file F]]

Prints the configuration an MCP client needs to start or reach your server;
with --write, merges it into the client's configuration file after showing
the diff (asking first when stdin is a terminal).

clients:
  claude-desktop  claude_desktop_config.json ("mcpServers"; a URL goes through npx mcp-remote)
  claude-code     .mcp.json in this folder, and the \`claude mcp add\` command
  cursor          .cursor/mcp.json in this folder, and the install link
  vscode          .vscode/mcp.json in this folder, and the install link
  mcp-json        a generic mcp.json ("mcpServers"), for other clients

An <entry> runs through \`mcpkit dev --stdio\`, so the client keeps its
connection while the server reloads on change; a URL is used as is; "demo" is
the everything-server (\`mcpkit demo --stdio\`).

Production forms, without mcpkit dev:
  --prod          the client runs the built entry itself: \`node <entry>\`; the
                  entry serves stdio (a .js file, e.g. dist/stdio.js of mcpkit init)
  npm:PACKAGE     a published server: \`npx -y PACKAGE\` (PACKAGE may carry @version)

  --env KEY=VALUE an environment variable for the server the client starts
                  (repeatable; not for a URL)
  --name N     the server's name in the configuration (default: from the entry's file or package name)
  --write      write the configuration file instead of printing
  --file F     the file to write (default: the client's usual file, above)

exit codes: 0 ok · 2 usage · 5 the file could not be read or written`;

type Json = Record<string, unknown>;
type Client = 'claude-desktop' | 'claude-code' | 'cursor' | 'vscode' | 'mcp-json';
const CLIENTS: Client[] = ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'mcp-json'];

interface Launch {
  name: string;
  stdio?: { command: string; args: string[]; env?: Record<string, string> };
  url?: string;
}

const NPM_NAME = /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(@[^\s/]+)?$/i;

function launchOf(target: string, name: string | undefined, prod: boolean): Launch {
  if (isUrl(target)) {
    if (prod) throw usage('--prod goes with an entry file; a URL is used as is');
    const url = new URL(target);
    const local = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    return { name: name ?? (local ? `localhost-${url.port || 80}` : url.hostname), url: target };
  }
  if (target.startsWith('npm:')) {
    const spec = target.slice(4);
    if (!NPM_NAME.test(spec)) throw usage(`npm:${spec}: not a package name (e.g. npm:my-server or npm:@scope/server@1.2.0)`);
    const bare = spec.replace(/(?!^)@.*$/, '');
    return { name: name ?? bare.replace(/^@[^/]+\//, ''), stdio: { command: 'npx', args: ['-y', spec] } };
  }
  if (target === 'demo' && !existsSync(target)) return { name: name ?? 'mcpkit-demo', stdio: { command: 'node', args: [BIN, 'demo', '--stdio'] } };
  const path = entryPath(target);
  if (!prod) return { name: name ?? defaultName(path), stdio: { command: 'node', args: [BIN, 'dev', '--stdio', path] } };
  // Clients start servers with plain node, on whatever Node they find: no type stripping to count on.
  if (/\.(ts|mts|cts)$/.test(path)) throw usage(`--prod runs the built entry with node: ${target} is TypeScript; build it (npm run build) and pass the .js file, e.g. dist/stdio.js`);
  return { name: name ?? defaultName(path), stdio: { command: 'node', args: [path] } };
}

/** `--env KEY=VALUE` options as an object, refusing a malformed one with the form to use. */
function envOf(pairs: readonly string[]): Record<string, string> | undefined {
  if (pairs.length === 0) return undefined;
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const key = at < 0 ? pair : pair.slice(0, at);
    if (at < 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw usage(`--env ${pair}: expected KEY=VALUE with KEY made of letters, digits and _ (e.g. --env API_KEY=abc)`);
    env[key] = pair.slice(at + 1);
  }
  return env;
}

/** The nearest package.json's name, else the file's name without extension. */
function defaultName(entry: string): string {
  for (let dir = dirname(entry); ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      const name = (JSON.parse(readFileSync(pkg, 'utf8')) as Json)['name'];
      if (typeof name === 'string' && name) return name.replace(/^@[^/]+\//, '');
      break;
    }
    if (dirname(dir) === dir) break;
  }
  return basename(entry, extname(entry));
}

/** The client's entry for this server, and the key of the map it lives in. */
function entryFor(client: Client, launch: Launch): { key: string; value: Json } {
  if (client === 'vscode') return { key: 'servers', value: launch.url ? { type: 'http', url: launch.url } : { type: 'stdio', ...launch.stdio } };
  if (client === 'claude-desktop') {
    // Claude Desktop's file only starts processes; a remote server goes through mcp-remote.
    return { key: 'mcpServers', value: launch.url ? { command: 'npx', args: ['-y', 'mcp-remote', launch.url] } : { ...launch.stdio } };
  }
  if (client === 'claude-code') return { key: 'mcpServers', value: launch.url ? { type: 'http', url: launch.url } : { type: 'stdio', ...launch.stdio } };
  return { key: 'mcpServers', value: launch.url ? { url: launch.url } : { ...launch.stdio } };
}

function defaultFile(client: Client): string {
  switch (client) {
    case 'claude-desktop':
      if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
      if (process.platform === 'win32') return join(process.env['APPDATA'] ?? join(homedir(), 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
      return join(homedir(), '.config', 'Claude', 'claude_desktop_config.json');
    case 'claude-code':
      return resolve('.mcp.json');
    case 'cursor':
      return resolve('.cursor', 'mcp.json');
    case 'vscode':
      return resolve('.vscode', 'mcp.json');
    case 'mcp-json':
      return resolve('mcp.json');
  }
}

/** What else the client offers: a command line or an install link. */
function extras(client: Client, launch: Launch, value: Json): string[] {
  const shellQuote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  if (client === 'claude-code') {
    const command = launch.url
      ? `claude mcp add --transport http ${shellQuote(launch.name)} ${shellQuote(launch.url)}`
      : `claude mcp add ${shellQuote(launch.name)} ${Object.entries(launch.stdio!.env ?? {}).map(([k, v]) => `-e ${shellQuote(`${k}=${v}`)} `).join('')}-- ${[launch.stdio!.command, ...launch.stdio!.args].map(shellQuote).join(' ')}`;
    return [`or run:  ${command}`];
  }
  if (client === 'cursor') {
    const config = Buffer.from(JSON.stringify(value)).toString('base64');
    return [`install link:  cursor://anysphere.cursor-deeplink/mcp/install?name=${encodeURIComponent(launch.name)}&config=${encodeURIComponent(config)}`];
  }
  if (client === 'vscode') {
    const json = JSON.stringify({ name: launch.name, ...value });
    return [`install link:  vscode:mcp/install?${encodeURIComponent(json)}`, `or run:  code --add-mcp ${shellQuote(json)}`];
  }
  if (client === 'claude-desktop') return [`file: ${defaultFile(client)} (restart Claude Desktop after editing)`];
  return [];
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse('config', argv, {
    name: { type: 'string' },
    write: { type: 'boolean' },
    file: { type: 'string' },
    prod: { type: 'boolean' },
    env: { type: 'string', multiple: true },
  });
  const [client, target, extra] = positionals;
  if (client === undefined || target === undefined || extra !== undefined) throw usage('expected <client> <entry|url|demo|npm:PACKAGE> (run: mcpkit config --help)');
  if (!CLIENTS.includes(client as Client)) throw usage(`unknown client "${client}"; one of: ${CLIENTS.join(', ')}`);
  if (values.file !== undefined && !values.write) throw usage('--file only goes with --write');
  if (values.prod && (target.startsWith('npm:') || (target === 'demo' && !existsSync(target)))) throw usage(`--prod goes with an entry file; ${target} already runs without mcpkit dev`);
  const launch = launchOf(target, values.name, values.prod === true);
  const env = envOf(values.env ?? []);
  if (env !== undefined) {
    if (launch.stdio === undefined) throw usage('--env sets the environment of a server the client starts; a URL names a server that runs already');
    launch.stdio.env = env;
  }
  const { key, value } = entryFor(client as Client, launch);

  if (!values.write) {
    console.log(JSON.stringify({ [key]: { [launch.name]: value } }, null, 2));
    for (const line of extras(client as Client, launch, value)) console.error(line);
    return Exit.OK;
  }

  const file = resolve(values.file ?? defaultFile(client as Client));
  let before = '';
  let config: Json = {};
  if (existsSync(file)) {
    before = readFileSync(file, 'utf8');
    try {
      config = before.trim() === '' ? {} : (JSON.parse(before) as Json);
    } catch (error) {
      throw new CliError(`${file} is not JSON (${(error as Error).message}); fix or move it first`, Exit.FAILURE);
    }
  }
  const servers = (config[key] ?? {}) as Json;
  const after = `${JSON.stringify({ ...config, [key]: { ...servers, [launch.name]: value } }, null, 2)}\n`;
  if (after === before) {
    console.error(`${file}: already up to date`);
    return Exit.OK;
  }
  console.error(`${existsSync(file) ? 'changes to' : 'new file'} ${file}:`);
  console.error(lineDiff(before, after));
  if (process.stdin.isTTY) {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    const answer = await rl.question('write it? [y/N] ');
    rl.close();
    if (!/^y(es)?$/i.test(answer.trim())) {
      console.error('not written');
      return Exit.OK;
    }
  }
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, after);
  } catch (error) {
    throw new CliError(`cannot write ${file}: ${(error as Error).message}`, Exit.FAILURE);
  }
  console.error(`wrote ${file}`);
  return Exit.OK;
}

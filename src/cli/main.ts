/**
 * The `mcpkit` command. bin/mcpkit.js imports this file only when the command
 * runs, and this file imports only the command asked for: `import 'mcpkit'`
 * never loads CLI code, and `mcpkit call` never loads the scaffolder.
 */
import { CliError, Exit } from './errors.js';

export interface Command {
  readonly help: string;
  run(argv: string[]): Promise<number>;
}

const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  dev: { summary: 'run a server file with reload on change (HTTP, or stdio through a supervisor)', load: () => import('./commands/dev.js') },
  call: { summary: 'call a tool: mcpkit call <entry|url> <tool> key=value…', load: () => import('./commands/call.js') },
  inspect: { summary: "print a server's tools, resources, prompts and capabilities", load: () => import('./commands/inspect.js') },
  config: { summary: 'print or write the configuration an MCP client needs', load: () => import('./commands/config.js') },
  'server-json': { summary: 'print the server.json the MCP Registry publishes (from package.json and the server)', load: () => import('./commands/server-json.js') },
  init: { summary: 'create a new server project (TypeScript, one tool, one test)', load: () => import('./commands/init.js') },
  openapi: { summary: 'serve an OpenAPI document as MCP tools: mcpkit openapi <file|url> --base-url <url>', load: () => import('./commands/openapi.js') },
  demo: { summary: 'run the everything-server demo (HTTP on :3000, or --stdio)', load: () => import('./commands/demo.js') },
  proxy: { summary: 'serve other MCP servers (stdio or HTTP) through one endpoint: --config file.json, -- <command>, or <url>', load: () => import('./commands/proxy.js') },
};

/** Names a newcomer types for a command that has another name (the package calls it mcpkit/gateway). */
const SYNONYMS: Record<string, string> = { gateway: 'proxy' };

function unknownCommand(name: string): string {
  const meant = Object.hasOwn(SYNONYMS, name) ? SYNONYMS[name] : undefined;
  return meant === undefined ? `mcpkit: unknown command "${name}"` : `mcpkit: unknown command "${name}" — did you mean \`mcpkit ${meant}\`?`;
}

export const HELP = `mcpkit: build and run Model Context Protocol servers

usage: mcpkit <command> [options]

commands:
${Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(11)} ${c.summary}`).join('\n')}

mcpkit <command> --help   options of one command
mcpkit --version          the mcpkit version

exit codes: 0 ok · 1 the tool answered isError · 2 usage error · 3 protocol error
            4 server unreachable · 5 other failure          (docs/cli.md)`;

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    if (name === 'help' && rest[0] !== undefined) return main([rest[0], '--help']);
    console.log(HELP);
    return name === undefined ? Exit.USAGE : Exit.OK;
  }
  if (name === '--version' || name === '-v') {
    const { readPackage } = await import('./package-root.js');
    console.log(readPackage().version);
    return Exit.OK;
  }
  // Own keys only: `mcpkit toString` is an unknown command, not Object.prototype's method.
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (entry === undefined) {
    console.error(`${unknownCommand(name)}\n\n${HELP}`);
    return Exit.USAGE;
  }
  try {
    const command = await entry.load();
    if (rest.includes('--help') || rest.includes('-h')) {
      console.log(command.help);
      return Exit.OK;
    }
    return await command.run(rest);
  } catch (error) {
    if (error instanceof CliError) {
      console.error(`mcpkit ${name}: ${error.message}`);
      return error.exitCode;
    }
    console.error(`mcpkit ${name}: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return Exit.FAILURE;
  }
}

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { parse } from '../args.js';
import { CliError, Exit, usage } from '../errors.js';
import { PACKAGE_ROOT, readPackage } from '../package-root.js';
import { projectFiles } from '../scaffold.js';
import { typeStripping } from '../target.js';

export const help = `usage: mcpkit init <dir> [--name N] [--mcpkit SPEC] [--no-install]

Creates a new MCP server project in <dir> (new or empty): TypeScript, one
tool, one test with mcpkit/testing, and scripts:

  npm run dev    mcpkit dev src/server.ts (reload on change); on a Node
                 without type stripping (Node 20): tsc, then mcpkit dev
                 dist/server.js, with npm run watch recompiling on save
  npm test       compile, then node --test
  npm run build  compile to dist/; npm start serves dist/stdio.js on stdio

  --name N        the package and server name (default: the folder's name)
  --mcpkit SPEC   the mcpkit dependency (default: file:<the mcpkit this command
                  runs from>, until mcpkit is on the npm registry; e.g. ^0.1.0)
  --no-install    write the files only; run npm install yourself

exit codes: 0 created · 2 usage (the folder is not empty, bad name) · 5 npm install failed`;

function install(dir: string, linked: boolean): Promise<number | null> {
  // A file: dependency on this mcpkit is already built (this command runs from it): its `prepare`
  // would only rebuild it in place, under any process using it at the time.
  const args = ['install', '--no-audit', '--no-fund', ...(linked ? ['--ignore-scripts'] : [])];
  return new Promise((done, fail) => {
    const npm = spawn('npm', args, { cwd: dir, stdio: ['ignore', process.stderr, process.stderr], shell: process.platform === 'win32' });
    npm.once('error', fail);
    npm.once('exit', (code) => done(code));
  });
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse('init', argv, { name: { type: 'string' }, mcpkit: { type: 'string' }, 'no-install': { type: 'boolean' } });
  const [target, extra] = positionals;
  if (target === undefined || extra !== undefined) throw usage('expected exactly one <dir> (run: mcpkit init --help)');
  const dir = resolve(target);
  if (existsSync(dir) && readdirSync(dir).length > 0) throw usage(`${target} is not empty; choose a new folder`);
  const name = values.name ?? basename(dir).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[._-]+/, '');
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(name) || name.length > 214) throw usage(`"${name}" is not a valid package name; pass --name`);

  const own = readPackage();
  const spec = values.mcpkit ?? `file:${PACKAGE_ROOT}`;
  const files = projectFiles({ name, mcpkit: spec, devDependencies: own.devDependencies ?? {} });
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  const shown = relative(process.cwd(), dir) || '.';
  console.error(`created ${shown}/: ${Object.keys(files).join(', ')}`);
  if (!values['no-install']) {
    console.error(`installing (npm install in ${shown})…`);
    const code = await install(dir, spec.startsWith('file:'));
    if (code !== 0) throw new CliError(`npm install failed (exit ${code}) in ${shown}; fix the problem above and run it again there`, Exit.FAILURE);
  }
  console.error(nextSteps(shown, values['no-install'] === true));
  return Exit.OK;
}

/**
 * What to run next. A Node that cannot run the .ts files (Node 20: no type stripping) gets the
 * dist/ forms, so the printed commands work as printed instead of exiting 5.
 */
export function nextSteps(shown: string, noInstall: boolean, version = process.versions.node): string {
  const head = `
next:
  cd ${shown}
${noInstall ? '  npm install\n' : ''}  npm test                      # compile and run the test
`;
  if (typeStripping(version) !== false) {
    return `${head}  npm run dev                   # HTTP on http://127.0.0.1:3000/mcp, reload on change
  npx mcpkit inspect src/server.ts
  npx mcpkit config claude-desktop src/server.ts`;
  }
  return `${head}  # Node ${version} cannot run .ts files (Node >= 22.6 can): the scripts use the compiled dist/
  npm run watch                 # in another terminal: keeps dist/ up to date
  npm run dev                   # tsc, then HTTP on http://127.0.0.1:3000/mcp, reload on change
  npx mcpkit inspect dist/server.js
  npx mcpkit config claude-desktop dist/server.js`;
}

#!/usr/bin/env node
// `npm test`: typecheck, lint and build at once; the test files as soon as the build is done (beside
// whatever of typecheck and lint is still running); the conformance suite (its two halves at once)
// once typecheck and lint (run at nice 10) or the test files are done. On a 2-core machine the build ends well
// before tsc and ESLint, and the test files waited for those with one core idle; they need only dist/.
// Held output (typecheck, lint, build, conformance) is printed in one block under the step's name
// when it ends. Every step runs to its end (the test files and conformance need a good build) and
// the run fails naming every step that failed.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs `npm run <script>`, its output held; resolves with the exit code and the output. */
function run(script, env = {}) {
  return collect(spawn(npm, ['run', '--silent', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
}

/**
 * `run` at a lower priority (nice 10, where `nice` exists): typecheck and lint only fill the CPU the
 * test files leave idle, so the tests' timeouts see the CPU they had when they ran alone.
 */
function runNice(script) {
  if (process.platform === 'win32' || !existsSync('/usr/bin/nice')) return run(script);
  return collect(spawn('/usr/bin/nice', ['-n', '10', npm, 'run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] }));
}

/** Holds a child's output; resolves with its exit code and the output. */
function collect(child) {
  return new Promise((resolve) => {
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => resolve({ code: 1, output: String(error) }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString('utf8') }));
  });
}

/** Runs `node <file>`, its output held (as `run`). */
function runNode(file, env = {}) {
  return collect(spawn(process.execPath, [file], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
}

/** Runs `npm run <script>` with the terminal attached (vitest reports as it goes). */
function runAttached(script, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script], { env: { ...process.env, ...env }, stdio: 'inherit' });
    child.on('error', () => resolve({ code: 1 }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0) }));
  });
}

const started = Date.now();
const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;
const failed = [];

/** Awaits a held step and prints its block; records a failure under `name`. */
async function report(name, pending) {
  const result = await pending;
  const text = (result.output ?? '').trimEnd();
  process.stdout.write(`── ${name}: ${result.code === 0 ? 'ok' : `failed (exit ${result.code})`} at ${seconds()}\n${text ? `${text}\n` : ''}`);
  if (result.code !== 0) failed.push(name);
  return result.code === 0;
}

process.stdout.write('npm test: typecheck, lint and build at once; the test files once the build is done; the conformance suite once typecheck and lint are\n');
const checks = Promise.all(['typecheck', 'lint'].map((script) => report(script, runNice(script))));
// The build emits without type-checking (`build:emit`, tsc --noCheck, the same dist/ byte for byte):
// the typecheck step checks src/ with test/ in the same run, so checking it a second time here only
// delayed the test files, which wait for dist/.
const built = await report('build', run('build:emit'));

let unit = Promise.resolve();
let conformance = Promise.resolve();
if (built) {
  process.stdout.write(`── test:unit at ${seconds()} (beside typecheck and lint while they run)\n`);
  unit = runAttached('test:unit').then(({ code }) => {
    process.stdout.write(`── test:unit: ${code === 0 ? 'ok' : `failed (exit ${code})`} at ${seconds()}\n`);
    if (code !== 0) failed.push('test:unit');
  });
  // The server and client halves of the conformance suite (what `npm run conformance` runs one after
  // the other) at once, once typecheck and lint have freed their cores or the test files are done: the client
  // half is one CPU-bound process for about a minute, the server half mostly waits on its demo server,
  // and the tail of the test files is a few slow files waiting on servers. Separate directories, free ports.
  conformance = Promise.race([checks, unit]).then(() =>
    Promise.all(['conformance.mjs', 'conformance-client.mjs'].map((script) => report(script, runNode(`scripts/${script}`, { MCPKIT_CONFORMANCE_REQUIRED: '1' })))),
  );
}
await Promise.all([checks, unit, conformance]);

if (failed.length > 0) {
  const skipped = built ? '' : ' (the build failed: the test files and the conformance suite did not run)';
  process.stderr.write(`npm test: FAILED at ${seconds()}: ${failed.join(', ')}${skipped}\n`);
  process.exit(1);
}
process.stdout.write(`npm test: everything passed in ${seconds()}\n`);

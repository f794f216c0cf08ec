#!/usr/bin/env node
// `npm test`: typecheck, lint and build at once, then every test file, then the conformance suite
// (its server and client halves at once).
// tsc, ESLint and the build are each one single-threaded process, so on a 2-core machine running
// them side by side takes about as long as the slowest instead of their sum. Each step's output is
// held until it ends and printed in one block under its name, so two steps never interleave lines.
// Any step failing fails the run (the later ones do not start), with the failing step named.
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs `npm run <script>`, its output held; resolves with the exit code and the output. */
function run(script, env = {}) {
  return collect(spawn(npm, ['run', '--silent', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
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

/** Runs `npm run <script>` with the terminal attached (vitest and the conformance suite report as they go). */
function runAttached(script, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script], { env: { ...process.env, ...env }, stdio: 'inherit' });
    child.on('error', () => resolve(1));
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const started = Date.now();
const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;

const parallel = ['typecheck', 'lint', 'build'];
process.stdout.write(`npm test: ${parallel.join(', ')} at once, then the test files, then the conformance suite\n`);
const results = await Promise.all(
  parallel.map(async (script) => {
    const result = await run(script);
    const text = result.output.trimEnd();
    process.stdout.write(`── ${script}: ${result.code === 0 ? 'ok' : `failed (exit ${result.code})`} at ${seconds()}\n${text ? `${text}\n` : ''}`);
    return { script, ...result };
  }),
);
const failed = results.filter((result) => result.code !== 0);
if (failed.length > 0) {
  process.stderr.write(`npm test: ${failed.map((result) => result.script).join(', ')} failed; the tests did not run\n`);
  process.exit(1);
}

process.stdout.write(`── test:unit at ${seconds()}\n`);
const unit = await runAttached('test:unit');
if (unit !== 0) {
  process.stderr.write(`npm test: test:unit failed (exit ${unit}) at ${seconds()}\n`);
  process.exit(unit);
}

// The server and client halves of the conformance suite (what `npm run conformance` runs one after
// the other) at once: the client half is one CPU-bound process for about a minute, the server half
// mostly waits on its demo server, so together they take about as long as the client half alone.
// They write to separate directories (.conformance/<rev>, .conformance/client/<rev>) on free ports.
const conformance = ['conformance.mjs', 'conformance-client.mjs'];
process.stdout.write(`── conformance (${conformance.join(', ')} at once) at ${seconds()}\n`);
const suites = await Promise.all(
  conformance.map(async (script) => {
    const result = await runNode(`scripts/${script}`, { MCPKIT_CONFORMANCE_REQUIRED: '1' });
    const text = result.output.trimEnd();
    process.stdout.write(`── ${script}: ${result.code === 0 ? 'ok' : `failed (exit ${result.code})`} at ${seconds()}\n${text ? `${text}\n` : ''}`);
    return { script, ...result };
  }),
);
const broken = suites.filter((result) => result.code !== 0);
if (broken.length > 0) {
  process.stderr.write(`npm test: ${broken.map((result) => result.script).join(', ')} failed at ${seconds()}\n`);
  process.exit(1);
}
process.stdout.write(`npm test: everything passed in ${seconds()}\n`);

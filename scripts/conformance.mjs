#!/usr/bin/env node
// `npm run conformance`: run the official MCP conformance suite
// (@modelcontextprotocol/conformance, pinned in devDependencies) against the
// demo server, for both requirement sets, and compare the results with the
// baseline conformance/expected-failures.yaml. See conformance/README.md.
//
// Exit: 0 = results match the baseline (or no HTTP endpoint yet and not required)
//       1 = unexpected failure, stale/unknown baseline entry, or a required
//           server that has no HTTP endpoint
//       2 = setup problem (bad arguments/env/baseline, port busy, suite
//           crashed, hung or wrote no results)
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatBaseline, parseBaseline } from './conformance/baseline.mjs';
import { loadRequirementSet, readResults } from './conformance/results.mjs';
import { portAcceptsConnections, spawnGroup, stopGroup, waitForPort } from './conformance/server.mjs';

const REVISIONS = ['2025-11-25', '2026-07-28'];
// Extension scenarios no requirement set lists (extensions are on no spec timeline): run one by
// one at each revision's wire (--spec-version <rev> --force), under the same baseline rule. One
// whose checks are all SKIPPED fails: it checked nothing (e.g. the demo stopped declaring skills).
const EXTENSION_SCENARIOS = ['sep-2640-skills-directory', 'sep-2640-skills-enumeration', 'sep-2640-skills-manifest'];
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = path.join(ROOT, '.conformance');
const BASELINE_FILE = path.join(ROOT, 'conformance', 'expected-failures.yaml');
const SERVER_ENTRY = 'examples/everything-server/main.js';
const SHIM = pathToFileURL(path.join(ROOT, 'scripts', 'conformance', 'register.mjs')).href;
const READY_TIMEOUT_MS = 30_000;
const SCENARIO_TIMEOUT_MS = 30_000;
const EXIT_OK = 0;
const EXIT_FAIL = 1;
const EXIT_SETUP = 2;

const USAGE = `usage: node scripts/conformance.mjs [--write-baseline]
  --write-baseline  maintainers only: rewrite conformance/expected-failures.yaml
                    from this run's failures (keeps existing comments)
env: CONFORMANCE_PORT (default: a free port, so a running demo on 3000 is no obstacle), CONFORMANCE_SERVER_CMD (shell command; gets PORT),
     CONFORMANCE_RUN_TIMEOUT (seconds per requirement set, 600),
     MCPKIT_CONFORMANCE_REQUIRED=1 (a missing HTTP endpoint fails instead of skipping)`;

class SetupError extends Error {}

const rel = (p) => path.relative(process.cwd(), p) || '.';
const oneLine = (s, max = 300) => {
  const t = String(s ?? '').replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};
const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const tail = (file, lines = 15) => {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).map((l) => `    ${l}`).join('\n');
  } catch {
    return '    (no log)';
  }
};

function readSettings(argv) {
  const writeBaseline = argv.includes('--write-baseline');
  if (argv.includes('-h') || argv.includes('--help')) {
    console.log(USAGE);
    process.exit(EXIT_OK);
  }
  const unknown = argv.filter((a) => a !== '--write-baseline');
  if (unknown.length) throw new SetupError(`unknown argument ${unknown[0]}\n${USAGE}`);
  const port = process.env.CONFORMANCE_PORT ? Number(process.env.CONFORMANCE_PORT) : 0; // 0: a free port, chosen in main()
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new SetupError(`bad CONFORMANCE_PORT=${process.env.CONFORMANCE_PORT}`);
  const runTimeoutS = Number(process.env.CONFORMANCE_RUN_TIMEOUT || 600);
  if (!(runTimeoutS > 0)) throw new SetupError(`bad CONFORMANCE_RUN_TIMEOUT=${process.env.CONFORMANCE_RUN_TIMEOUT}`);
  return {
    writeBaseline,
    port,
    runTimeoutMs: runTimeoutS * 1000,
    serverCmd: process.env.CONFORMANCE_SERVER_CMD || null,
    required: process.env.MCPKIT_CONFORMANCE_REQUIRED === '1',
  };
}

function readBaseline(optional) {
  let text;
  try {
    text = fs.readFileSync(BASELINE_FILE, 'utf8');
  } catch {
    if (optional) return new Map();
    throw new SetupError(`missing baseline ${rel(BASELINE_FILE)}`);
  }
  try {
    return parseBaseline(text, rel(BASELINE_FILE));
  } catch (error) {
    throw new SetupError(error.message);
  }
}

function findSuite() {
  try {
    const pkg = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json');
    const dir = path.dirname(pkg);
    return { dir, cli: path.join(dir, 'dist', 'index.js'), version: JSON.parse(fs.readFileSync(pkg, 'utf8')).version };
  } catch {
    throw new SetupError('@modelcontextprotocol/conformance is not installed (run npm ci)');
  }
}

// Process groups we started and have not stopped yet. On Ctrl-C / SIGTERM stop
// them (they are detached, so the terminal's signal does not reach them) and exit.
const groups = new Set();
let interrupted = false;
async function stop(group) {
  groups.delete(group);
  await stopGroup(group);
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    interrupted = true;
    console.error(`conformance: ${signal}, stopping`);
    void Promise.all([...groups].map((g) => stopGroup(g, 2000))).finally(() => process.exit(128 + os.constants.signals[signal]));
  });
}

async function startServer(settings) {
  if (!settings.serverCmd && !fs.existsSync(path.join(ROOT, SERVER_ENTRY))) {
    return { why: `${SERVER_ENTRY} does not exist` };
  }
  if (await portAcceptsConnections(settings.port)) {
    throw new SetupError(`port ${settings.port} is already in use before the server was started; stop that listener or set CONFORMANCE_PORT`);
  }
  const log = path.join(OUT_DIR, 'server.log');
  const logFd = fs.openSync(log, 'w');
  const started = Date.now();
  const group = spawnGroup(settings.serverCmd ?? [process.execPath, SERVER_ENTRY], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(settings.port) },
    logFd,
  });
  fs.closeSync(logFd);
  groups.add(group);
  const ready = await waitForPort(group, settings.port, READY_TIMEOUT_MS);
  if (!ready.ok) {
    await stop(group);
    return { why: `${ready.why}; log: ${rel(log)}`, log };
  }
  console.log(`conformance: server up on ${settings.url} (pid ${group.pid}, ${Date.now() - started} ms; log ${rel(log)})`);
  return { group, log };
}

/** One suite CLI process in its own group, output appended to `log`; resolves when it exits. */
async function runCli(args, log) {
  const logFd = fs.openSync(log, 'a');
  const group = spawnGroup([process.execPath, ...args], { cwd: ROOT, env: process.env, logFd });
  fs.closeSync(logFd);
  groups.add(group);
  return { group, exited: group.exited.finally(() => stop(group)) };
}

/** `conformance server --requirements <rev>`, then each extension scenario at that wire, bounded by runTimeoutMs together. */
async function runSuite(suite, revision, settings) {
  const outDir = path.join(OUT_DIR, revision);
  const log = path.join(OUT_DIR, `${revision}.log`);
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.writeFileSync(log, '');
  const major = Number(process.versions.node.split('.')[0]);
  const cli = [...(major < 22 ? ['--import', SHIM] : []), suite.cli, 'server', '--url', settings.url]; // Node 20: fs.globSync shim
  const common = ['-o', outDir, '--timeout', String(SCENARIO_TIMEOUT_MS)];
  const started = Date.now();
  let timedOut = false;
  let current;
  const timer = setTimeout(() => {
    timedOut = true;
    if (current) void stopGroup(current.group);
  }, settings.runTimeoutMs);
  current = await runCli([...cli, '--requirements', revision, ...common], log);
  const exit = await current.exited;
  for (const scenario of EXTENSION_SCENARIOS) {
    if (timedOut || interrupted) break;
    current = await runCli([...cli, '--scenario', scenario, '--spec-version', revision, '--force', ...common], log);
    await current.exited;
  }
  clearTimeout(timer);
  const results = readResults(outDir);
  const ms = Date.now() - started;
  console.log(`conformance: ${revision}: ${results.size} scenarios in ${(ms / 1000).toFixed(1)} s (suite exit ${exit.code ?? exit.signal}; log ${rel(log)})`);
  const problem = timedOut ? `run exceeded CONFORMANCE_RUN_TIMEOUT (${settings.runTimeoutMs / 1000} s)`
    : exit.error ? `could not start the suite: ${exit.error.message}`
    : results.size === 0 ? 'the suite wrote no results' : null;
  return { revision, results, log, problem };
}

/** The suite's "Failed to run scenario X: <error>" line for a scenario that wrote no checks. */
function crashReason(log, scenario) {
  let text = '';
  try {
    text = fs.readFileSync(log, 'utf8');
  } catch {
    return null;
  }
  const prefix = `Failed to run scenario ${scenario}: `;
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  return line ? oneLine(line.slice(prefix.length)) : null;
}

/** Scenario rows for one revision, with their baseline status. */
function evaluate(revision, set, results, baseline) {
  const listed = baseline.get(revision) ?? new Map();
  return set.map(({ scenario, scored, extension }) => {
    const r = results.get(scenario);
    const failing = !r || r.failed > 0 || (extension === true && r.passed === 0);
    const expected = listed.has(scenario);
    const status = failing && !expected ? 'NEW' : !failing && expected ? 'STALE' : failing ? 'expected' : '';
    return { scenario, scored, extension, failing, status, result: r };
  });
}

function printTable(revision, rows) {
  const table = [['scenario', 'set', 'result', 'checks ok/fail', 'baseline']];
  for (const row of rows) {
    const r = row.result;
    const checks = r ? `${r.passed}/${r.failed}${r.warnings ? ` (${r.warnings} warn)` : ''}` : 'no results';
    table.push([row.scenario, row.scored ? 'scored' : row.extension ? 'extension' : 'not_scored', row.failing ? 'FAIL' : 'PASS', checks, row.status]);
  }
  const widths = table[0].map((_, i) => Math.max(...table.map((t) => t[i].length)));
  console.log(`\n${revision}`);
  for (const [i, t] of table.entries()) {
    console.log(t.map((c, j) => c.padEnd(widths[j])).join('  ').trimEnd());
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

/** A port nothing listens on right now (the kernel's pick for port 0). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function main() {
  const settings = readSettings(process.argv.slice(2));
  if (settings.port === 0) settings.port = await freePort();
  settings.url = `http://localhost:${settings.port}/mcp`; // host must be localhost for dns-rebinding-protection
  const baseline = readBaseline(settings.writeBaseline);
  const suite = findSuite();
  const extensions = EXTENSION_SCENARIOS.map((scenario) => ({ scenario, scored: false, extension: true }));
  const sets = new Map(REVISIONS.map((rev) => [rev, [...loadRequirementSet(suite.dir, rev), ...extensions]]));
  fs.mkdirSync(OUT_DIR, { recursive: true });

  const server = await startServer(settings);
  if (!server.group) {
    if (settings.required) {
      console.error(`conformance: no HTTP endpoint (${server.why}) and MCPKIT_CONFORMANCE_REQUIRED=1`);
      if (server.log) console.error(tail(server.log));
      return EXIT_FAIL;
    }
    console.log(`conformance: no HTTP endpoint yet (${server.why}) — skipped`);
    return EXIT_OK;
  }

  const runs = [];
  try {
    for (const revision of REVISIONS) {
      if (!interrupted) runs.push(await runSuite(suite, revision, settings));
    }
  } finally {
    if (!interrupted && !server.group.alive()) console.error(`conformance: the server exited during the run; log ${rel(server.log)}:\n${tail(server.log)}`);
    await stop(server.group);
  }

  if (interrupted) return new Promise(() => {}); // the signal handler exits

  // Tables, then the differences from the baseline.
  const problems = [];
  const totals = new Map();
  const notScored = [0, 0];
  const rowsByRev = new Map();
  for (const run of runs) {
    const rows = evaluate(run.revision, sets.get(run.revision), run.results, baseline);
    rowsByRev.set(run.revision, rows);
    printTable(run.revision, rows);
    const scored = rows.filter((r) => r.scored);
    totals.set(run.revision, [scored.filter((r) => !r.failing).length, scored.length]);
    for (const r of rows.filter((x) => !x.scored)) {
      notScored[1] += 1;
      if (!r.failing) notScored[0] += 1;
    }
    for (const row of rows) {
      if (row.status === 'NEW') {
        const details = row.result
          ? row.result.failures.map((c) => `    [${c.id}] ${oneLine(c.errorMessage || c.description)}`)
          : [`    no checks.json: ${crashReason(run.log, row.scenario) ?? 'crashed or timed out'} (see ${rel(run.log)})`];
        if (row.result && row.result.failed === 0) details.push('    every check was SKIPPED: an extension scenario must check something');
        problems.push([`new failure: ${run.revision} ${row.scenario} (${row.scored ? 'scored' : 'not_scored'})`, ...details].join('\n'));
      } else if (row.status === 'STALE') {
        problems.push(`stale baseline entry: remove ${run.revision} ${row.scenario}`);
      }
    }
  }
  for (const [revision, entries] of baseline) {
    const known = new Set((sets.get(revision) ?? []).map((s) => s.scenario));
    for (const scenario of entries.keys()) {
      if (!known.has(scenario)) problems.push(`unknown baseline entry: remove ${revision} ${scenario} (not a server scenario of that requirement set)`);
    }
  }
  const setupProblems = runs.filter((r) => r.problem).map((r) => `conformance: ${r.revision}: ${r.problem}; log ${rel(r.log)}:\n${tail(r.log)}`);

  fs.writeFileSync(path.join(OUT_DIR, 'summary.json'), `${JSON.stringify({
    suite: suite.version,
    node: process.versions.node,
    revisions: Object.fromEntries([...rowsByRev].map(([rev, rows]) => [rev, rows.map((r) => ({
      scenario: r.scenario, scored: r.scored, pass: !r.failing, baseline: r.status,
      passed: r.result?.passed ?? 0, failed: r.result?.failed ?? null, failedChecks: [...new Set(r.result?.failures.map((c) => c.id))],
    }))])),
  }, null, 2)}\n`);

  console.log('');
  for (const p of problems) console.log(p);
  for (const p of setupProblems) console.error(p);

  if (settings.writeBaseline) {
    if (setupProblems.length) throw new SetupError('baseline not written: the run was incomplete');
    const next = new Map();
    for (const [revision, rows] of rowsByRev) {
      const old = baseline.get(revision) ?? new Map();
      const why = (r) => old.get(r.scenario)
        || `${r.scored ? '' : 'not_scored; '}${r.result ? `fails: ${[...new Set(r.result.failures.map((c) => c.id))].join(', ')}` : 'no results'}`;
      next.set(revision, new Map(rows.filter((r) => r.failing).map((r) => [r.scenario, why(r)])));
    }
    fs.mkdirSync(path.dirname(BASELINE_FILE), { recursive: true });
    fs.writeFileSync(BASELINE_FILE, formatBaseline(next));
    console.log(`conformance: wrote ${rel(BASELINE_FILE)} (${[...next].map(([rev, m]) => `${rev}: ${m.size}`).join(', ')})`);
  }

  const newCount = problems.filter((p) => p.startsWith('new failure')).length;
  const verdict = setupProblems.length ? 'run incomplete (see above)'
    : settings.writeBaseline ? 'baseline rewritten'
    : problems.length === 0 ? 'baseline ok'
    : `baseline mismatch: ${plural(newCount, 'new failure')}, ${plural(problems.length - newCount, 'stale/unknown entry', 'stale/unknown entries')}`;
  const counts = [...totals].map(([rev, [ok, n]]) => `${rev} ${ok}/${n} scored`).join(', ');
  console.log(`conformance: ${counts}, not_scored ${notScored[0]}/${notScored[1]}; ${verdict}`);
  if (setupProblems.length) return EXIT_SETUP;
  return problems.length && !settings.writeBaseline ? EXIT_FAIL : EXIT_OK;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  async (error) => {
    await Promise.all([...groups].map((g) => stopGroup(g)));
    console.error(`conformance: ${error instanceof SetupError ? error.message : error.stack}`);
    process.exitCode = EXIT_SETUP;
  },
);

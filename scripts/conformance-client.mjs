#!/usr/bin/env node
// The client half of `npm run conformance`: the official suite's `conformance client` scenarios
// (@modelcontextprotocol/conformance, pinned) run against examples/conformance-client/main.js on the
// built mcpkit/client, for both requirement sets, compared with the baseline
// conformance/expected-client-failures.yaml, which only shrinks (same format and rules as the server's).
//
// Exit: 0 = results match the baseline; 1 = a new failure or a stale/unknown baseline entry;
//       2 = setup problem (no dist/client.js, the suite crashed, hung or wrote no results).
//   node scripts/conformance-client.mjs [--write-baseline]
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatBaseline, parseBaseline } from './conformance/baseline.mjs';
import { loadRequirementSet } from './conformance/results.mjs';
import { spawnGroup, stopGroup } from './conformance/server.mjs';

const REVISIONS = ['2025-11-25', '2026-07-28'];
// Extension scenarios no requirement set lists: run one by one at each revision (--spec-version <rev>
// --force), under the same baseline rule. One whose checks are all SKIPPED fails: it checked nothing.
const EXTENSION_SCENARIOS = ['sep-2640-client-no-prefetch', 'sep-2640-client-verify-digest', 'sep-2640-client-verify-size', 'sep-2640-client-verify-frontmatter'];
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = path.join(ROOT, '.conformance', 'client');
const BASELINE_FILE = path.join(ROOT, 'conformance', 'expected-client-failures.yaml');
const PROGRAM = 'examples/conformance-client/main.js';
const SHIM = pathToFileURL(path.join(ROOT, 'scripts', 'conformance', 'register.mjs')).href;
const SCENARIO_TIMEOUT_MS = 30_000;
const RUN_TIMEOUT_MS = Number(process.env.CONFORMANCE_RUN_TIMEOUT || 600) * 1000;
const rel = (p) => path.relative(process.cwd(), p) || '.';

class SetupError extends Error {}

/** Map<scenario, { passed, failed, failures }> from the suite's `<scenario>-<timestamp>/checks.json` dirs (auth/ scenarios nest). */
function readClientResults(outDir) {
  const results = new Map();
  const walk = (dir, prefix) => {
    let entries = [];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      const match = /^(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/.exec(entry.name);
      const full = path.join(dir, entry.name);
      if (!match) {
        walk(full, `${prefix}${entry.name}/`);
        continue;
      }
      let checks;
      try {
        checks = JSON.parse(fs.readFileSync(path.join(full, 'checks.json'), 'utf8'));
      } catch {
        continue;
      }
      if (!Array.isArray(checks)) continue;
      const failures = checks.filter((c) => c.status === 'FAILURE');
      results.set(`${prefix}${match[1]}`, { passed: checks.filter((c) => c.status === 'SUCCESS').length, failed: failures.length, failures });
    }
  };
  walk(outDir, '');
  return results;
}

/** One `conformance client` run (its output appended to `log`), stopped when the whole set's time is up. */
async function runCli(args, log, deadline) {
  const logFd = fs.openSync(log, 'a');
  const group = spawnGroup([process.execPath, ...args], { cwd: ROOT, env: process.env, logFd });
  fs.closeSync(logFd);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void stopGroup(group);
  }, Math.max(0, deadline - Date.now()));
  await group.exited;
  clearTimeout(timer);
  await stopGroup(group);
  return timedOut;
}

/** `--requirements <rev>`, then each extension scenario at that revision, bounded by RUN_TIMEOUT_MS together. */
async function runSet(cli, revision) {
  const outDir = path.join(OUT_DIR, revision);
  const log = path.join(OUT_DIR, `${revision}.log`);
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.writeFileSync(log, '');
  const major = Number(process.versions.node.split('.')[0]);
  const base = [
    ...(major < 22 ? ['--import', SHIM] : []), // Node 20: fs.globSync shim
    cli, 'client', '--command', `${JSON.stringify(process.execPath)} ${PROGRAM}`, '-o', outDir, '--timeout', String(SCENARIO_TIMEOUT_MS),
  ];
  const started = Date.now();
  const deadline = started + RUN_TIMEOUT_MS;
  let timedOut = await runCli([...base, '--requirements', revision], log, deadline);
  for (const scenario of EXTENSION_SCENARIOS) {
    if (timedOut) break;
    timedOut = await runCli([...base, '--scenario', scenario, '--spec-version', revision, '--force'], log, deadline);
  }
  const results = readClientResults(outDir);
  console.log(`conformance client: ${revision}: ${results.size} scenarios in ${((Date.now() - started) / 1000).toFixed(1)} s (log ${rel(log)})`);
  if (timedOut) throw new SetupError(`${revision}: the run exceeded CONFORMANCE_RUN_TIMEOUT; log ${rel(log)}`);
  if (results.size === 0) throw new SetupError(`${revision}: the suite wrote no results; log ${rel(log)}`);
  return results;
}

async function main() {
  const write = process.argv.includes('--write-baseline');
  if (!fs.existsSync(path.join(ROOT, 'dist', 'client.js'))) throw new SetupError('dist/client.js is missing: run npm run build first');
  const suiteDir = path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json'));
  let baseline = new Map();
  try {
    baseline = parseBaseline(fs.readFileSync(BASELINE_FILE, 'utf8'), rel(BASELINE_FILE));
  } catch (error) {
    if (!write) throw new SetupError(error.code === 'ENOENT' ? `missing baseline ${rel(BASELINE_FILE)}` : error.message);
  }
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const problems = [];
  const next = new Map();
  const counts = [];
  for (const revision of REVISIONS) {
    const set = [...loadRequirementSet(suiteDir, revision, 'client'), ...EXTENSION_SCENARIOS.map((scenario) => ({ scenario, scored: false, extension: true }))];
    const results = await runSet(path.join(suiteDir, 'dist', 'index.js'), revision);
    const listed = baseline.get(revision) ?? new Map();
    const failing = new Map();
    let ok = 0;
    for (const { scenario, scored, extension } of set) {
      const r = results.get(scenario);
      const fails = !r || r.failed > 0 || (extension === true && r.passed === 0);
      if (!fails && scored) ok++;
      if (fails) failing.set(scenario, listed.get(scenario) || (r ? `fails: ${[...new Set(r.failures.map((c) => c.id))].join(', ')}` : 'no results'));
      if (fails && !listed.has(scenario)) {
        problems.push(`new failure: ${revision} ${scenario}${r ? `\n${r.failures.map((c) => `    [${c.id}] ${String(c.errorMessage || c.description).slice(0, 300)}`).join('\n')}` : ' (no checks.json)'}`);
      } else if (!fails && listed.has(scenario)) problems.push(`stale baseline entry: remove ${revision} ${scenario}`);
    }
    for (const scenario of listed.keys()) if (!set.some((s) => s.scenario === scenario)) problems.push(`unknown baseline entry: remove ${revision} ${scenario}`);
    next.set(revision, failing);
    counts.push(`${revision} ${ok}/${set.filter((s) => s.scored).length} scored`);
  }
  for (const p of problems) console.log(p);
  if (write) {
    fs.writeFileSync(BASELINE_FILE, formatBaseline(next));
    console.log(`conformance client: wrote ${rel(BASELINE_FILE)}`);
    return 0;
  }
  console.log(`conformance client: ${counts.join(', ')}; ${problems.length === 0 ? 'baseline ok' : `baseline mismatch (${problems.length})`}`);
  return problems.length === 0 ? 0 : 1;
}

main().then(
  (code) => (process.exitCode = code),
  (error) => {
    console.error(`conformance client: ${error instanceof SetupError ? error.message : error.stack}`);
    process.exitCode = 2;
  },
);

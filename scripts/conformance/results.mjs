// Requirement sets (from the suite's own YAML) and per-scenario results (from
// the checks.json files the suite writes under `-o <dir>`).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

/**
 * Scenarios of one requirement set for one leg (`server` or `client`): [{ scenario, scored, reason? }],
 * scored first, both in file order. `yaml` is a dependency of the conformance
 * package, so it is always resolvable from there.
 */
export function loadRequirementSet(conformanceDir, revision, leg = 'server') {
  const requireFromSuite = createRequire(path.join(conformanceDir, 'package.json'));
  const YAML = requireFromSuite('yaml');
  const file = path.join(conformanceDir, 'requirements', `${revision}.yaml`);
  const doc = YAML.parse(fs.readFileSync(file, 'utf8'));
  const scored = (doc[leg] ?? []).map((scenario) => ({ scenario: String(scenario), scored: true }));
  const notScored = (doc.not_scored ?? [])
    .filter((e) => e.leg === leg)
    .map((e) => ({ scenario: String(e.scenario), scored: false, reason: e.reason }));
  return [...scored, ...notScored];
}

// <outdir>/server-<scenario>-<ISO timestamp with ':' and '.' as '-'>/checks.json
const RESULT_DIR = /^server-(.+)-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)$/;

/**
 * Map<scenario, { checks, passed, failed, warnings, failures }> for one output
 * dir. A scenario fails iff any check is FAILURE (the suite's own verdict).
 */
export function readResults(outDir) {
  const results = new Map();
  let entries = [];
  try {
    entries = fs.readdirSync(outDir).sort(); // timestamps sort: the last run wins
  } catch {
    return results;
  }
  for (const name of entries) {
    const match = RESULT_DIR.exec(name);
    if (!match) continue;
    let checks;
    try {
      checks = JSON.parse(fs.readFileSync(path.join(outDir, name, 'checks.json'), 'utf8'));
    } catch {
      continue; // no or unreadable checks.json: treated like a missing scenario
    }
    if (!Array.isArray(checks)) continue;
    const count = (status) => checks.filter((c) => c.status === status).length;
    results.set(match[1], {
      checks,
      passed: count('SUCCESS'),
      failed: count('FAILURE'),
      warnings: count('WARNING'),
      failures: checks.filter((c) => c.status === 'FAILURE'),
    });
  }
  return results;
}

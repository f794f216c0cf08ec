/**
 * The conformance suite's four client scenarios of the skills extension, run against
 * test/fixtures/skills-host.mjs: the official SDK v1 client with mcpkit's fetchSkill doing the
 * verification (no prefetch; digest, size and front matter mismatches refused before the
 * supporting file is read). mcpkit/client will wire fetchSkill the same way.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = path.join(path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
// Node 20 lacks fs.globSync, which the suite imports (conformance/README.md).
const shim = Number(process.versions.node.split('.')[0]) < 22 ? ['--import', './scripts/conformance/register.mjs'] : [];

describe('sep-2640 client scenarios with fetchSkill', () => {
  it.each([
    ['sep-2640-client-no-prefetch', 'sep-2640-host-no-prefetch'],
    ['sep-2640-client-verify-digest', 'sep-2640-host-verify-digest'],
    ['sep-2640-client-verify-size', 'sep-2640-host-size-mismatch-failure'],
    ['sep-2640-client-verify-frontmatter', 'sep-2640-host-frontmatter-comparison'],
  ])('%s passes', async (scenario, checkId) => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpkit-skills-conformance-'));
    try {
      await run(process.execPath, [...shim, cli, 'client', '--command', `${process.execPath} test/fixtures/skills-host.mjs`, '--scenario', scenario, '-o', out, '--timeout', '20000'], { cwd: root });
      const [dir] = fs.readdirSync(out);
      const checks = JSON.parse(fs.readFileSync(path.join(out, dir!, 'checks.json'), 'utf8')) as { id: string; status: string; errorMessage?: string }[];
      expect(checks.filter((c) => c.id === checkId)).toEqual([expect.objectContaining({ status: 'SUCCESS' })]);
      expect(checks.filter((c) => c.status === 'FAILURE')).toEqual([]);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});

/**
 * scripts/check-snippets.mjs as CI runs it: a documented snippet that does not type-check
 * strict against mcpkit's source fails with the doc's line; declarations above a fence and a
 * skip with a reason are honoured; the repository's README and docs/ pass.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/check-snippets.mjs', import.meta.url));

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const REPO = fileURLToPath(new URL('../..', import.meta.url));
/** What the script checks by default: README.md and docs/*.md. */
const REPO_DOCS = ['README.md', ...fs.readdirSync(path.join(REPO, 'docs')).filter((file) => file.endsWith('.md')).sort().map((file) => `docs/${file}`)];

function check(markdown: string): { status: number | null; out: string; guide: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-snippets-'));
  dirs.push(dir);
  const guide = path.join(dir, 'guide.md');
  fs.writeFileSync(guide, markdown);
  const run = spawnSync(process.execPath, [SCRIPT, '--also', guide], { encoding: 'utf8', cwd: REPO });
  return { status: run.status, out: run.stdout + run.stderr, guide };
}

// One guide holding every case, checked with --also in the same run as the repository's own docs,
// the set the lint step checks with no file named (a run loads src/: seconds each). Each snippet is
// a module of its own, so the guide's errors are exactly the three below when the docs have none.
const GUIDE = [
  '# Guide', // 1
  '```ts',
  "server.resourceTemplate('city://{name}', {}, (_uri, { town }) => town);", // 3: not a variable
  '```',
  '```ts',
  'handler();', // 6: undefined name
  '```',
  '```ts',
  "server.prompt('p', { arguments: [{ name: 'a', required: true }, { name: 'b' }] }, ({ a, b }) => a + b.length);", // 9
  '```',
  '<!-- snippet: declare function run(s: unknown): void; -->',
  '```ts',
  'run(server);',
  '```',
  '<!-- snippet: skip (pseudo-code) -->',
  '```ts',
  'this is not TypeScript',
  '```',
].join('\n');

describe('check-snippets', () => {
  let fixture: { status: number | null; out: string; guide: string };
  beforeAll(() => {
    fixture = check(GUIDE);
  }, 60_000);

  it('fails on an undefined name or a variable the template lacks, at the line in the doc', () => {
    expect(fixture.status).toBe(1);
    expect(fixture.out).toMatch(/guide\.md:3: TS2339 Property 'town' does not exist on type '\{ name: string; \}'/);
    expect(fixture.out).toMatch(/guide\.md:6: TS2304 Cannot find name 'handler'/);
  });

  it('type-checks against the source: an optional prompt argument may be undefined', () => {
    expect(fixture.out).toMatch(/guide\.md:9: TS18048 'b' is possibly 'undefined'/);
  });

  it('honours declarations and a skip with a reason above the fence', () => {
    expect(fixture.out).toContain('check-snippets: 3 error(s)');
    expect(fixture.out).toContain('(pseudo-code)');
  });

  it('passes on the README and docs/: in the same run, no error is in them', () => {
    const errors = fixture.out.split('\n').filter((line) => / TS\d+ /.test(line));
    expect(errors).toHaveLength(3);
    for (const line of errors) expect(line).toMatch(/guide\.md:\d+: /);
    // The repository's snippets were in the run: its skipped ones are listed by doc and line.
    expect(fixture.out).toMatch(/skipped (README|docs\/[\w-]+)\.md:\d+ /);
  });

  it('with --also, checks the README and docs/ (what it checks with no file named, as the lint step runs it) and the file named', () => {
    expect(fixture.out).toContain(`check-snippets: ${REPO_DOCS.length + 1} file(s): ${[...REPO_DOCS, fixture.guide].join(' ')}\n`);
  });
});

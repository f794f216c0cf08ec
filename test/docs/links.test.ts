/**
 * Every link in the README and docs/ to a file of this repository names a file that exists, and
 * its `#anchor` a heading of that file: a renamed heading (client.md's tasks section gained
 * ", 2025-11-25 tasks") left cli.md linking to an anchor GitHub no longer has.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const BLOB = 'https://github.com/mcpkit/mcpkit/blob/main/';
const FILES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

/** GitHub's heading anchor: lower case, punctuation other than `-` and `_` dropped, spaces as `-`; repeats get `-1`, `-2`. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = match[1]!.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
    seen.set(slug, n + 1);
  }
  return anchors;
}

function brokenLinks(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const broken: string[] = [];
  for (const [, link] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^(https?:|mailto:)/.test(link!) && !link!.startsWith(BLOB)) continue;
    const [path = '', anchor] = (link!.startsWith(BLOB) ? link!.slice(BLOB.length) : link!).split('#');
    const target = path === '' ? file : link!.startsWith(BLOB) ? normalize(path) : normalize(join(dirname(file), path));
    if (!existsSync(join(ROOT, target))) broken.push(`${link} (no file ${target})`);
    else if (anchor !== undefined && target.endsWith('.md') && !headingAnchors(readFileSync(join(ROOT, target), 'utf8')).has(anchor)) broken.push(`${link} (no heading #${anchor} in ${target})`);
  }
  return broken;
}

describe('links in the README and docs/', () => {
  it('anchors follow GitHub: punctuation dropped, repeats numbered', () => {
    expect([...headingAnchors('# Tasks (2026-07-28 tasks extension, 2025-11-25 tasks)\n## `mcpkit call <entry>`\n## Limits\n## Limits\n')]).toEqual([
      'tasks-2026-07-28-tasks-extension-2025-11-25-tasks',
      'mcpkit-call-entry',
      'limits',
      'limits-1',
    ]);
  });

  it.each(FILES)('%s links only to files and headings that exist', (file) => {
    expect(brokenLinks(file)).toEqual([]);
  });
});

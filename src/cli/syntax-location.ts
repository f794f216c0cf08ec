/**
 * Where a syntax error is. `await import(entry)` rejects with a bare
 * `SyntaxError: Unexpected identifier` and Node internals for a stack: the
 * file and line are only printed when the error goes uncaught. So the host asks
 * `node --check` of the entry and the local files it imports, which prints them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

const MAX_FILES = 200;

/** The entry and the local files it reaches through static imports, re-exports and literal import() calls, entry first. */
function localGraph(entry: string): string[] {
  const seen = new Set<string>();
  const queue = [resolve(entry)];
  while (queue.length > 0 && seen.size < MAX_FILES) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    let source: string;
    try {
      source = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const match of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = resolve(dirname(file), match[1]!);
      // TypeScript sources import './x.js' for ./x.ts.
      const onDisk = existsSync(target) ? target : [target.replace(/\.(m|c)?js$/, '.$1ts')].find((t) => existsSync(t));
      if (onDisk !== undefined && !seen.has(onDisk)) queue.push(onDisk);
    }
  }
  return [...seen];
}

/** `node --check` output (`<file>:<line>`, the line, the caret, a blank line, the message) as one readable report. */
export function parseCheckOutput(stderr: string, cwd = process.cwd()): string | undefined {
  const lines = stderr.replace(/\r/g, '').split('\n');
  const head = /^(.*):(\d+)$/.exec(lines[0] ?? '');
  const message = lines.find((line) => /^\w*Error\b.*:/.test(line));
  if (!head || message === undefined) return undefined;
  const [, file, line] = head;
  const code = lines[1] ?? '';
  const caret = lines[2] ?? '';
  const column = caret.includes('^') ? caret.indexOf('^') + 1 : 1;
  const shown = relative(cwd, file!.replace(/^file:\/\//, '')) || file!;
  return `${shown}:${line}:${column}: ${message}\n  ${code}\n  ${caret}`;
}

/** A report naming the file, line and column of the syntax error in `entry`'s local graph, or undefined. */
export function locateSyntaxError(entry: string, execArgv: readonly string[] = process.execArgv): string | undefined {
  for (const file of localGraph(entry)) {
    const check = spawnSync(process.execPath, [...execArgv, '--check', file], { encoding: 'utf8' });
    if (check.status === 0) continue;
    const report = parseCheckOutput(check.stderr);
    if (report !== undefined) return report;
  }
  return undefined;
}

#!/usr/bin/env node
// A/B of stdio cold start, alternating fresh processes: spawn → `initialize` answered (what the bench's
// cold section measures), for each server file in turn, `--reps` rounds.
//   node bench/ab-cold.mjs [--reps 15] reference-stdio.mjs mcpkit-stdio.mjs /other/worktree/bench/servers/mcpkit-stdio.mjs
// Files are relative to bench/servers/ or absolute. Prints median and fastest per file, ratios to the first.
import path from 'node:path';
import { enablePinning, serversDir } from './lib/proc.mjs';
import { coldStart } from './lib/stdio.mjs';
import { median } from './lib/stats.mjs';
import { abArgs } from './lib/ab-args.mjs';

const { files, num } = abArgs(process.argv.slice(2), { known: ['reps'] });
const reps = num('reps', 15);
if (files.length === 0) throw new Error('usage: node bench/ab-cold.mjs [--reps N] A.mjs [B.mjs ...]');
enablePinning();
const runs = files.map(() => []);
for (let rep = 0; rep < reps; rep++) {
  for (const [i, file] of files.entries()) runs[i].push(await coldStart(path.relative(serversDir, path.resolve(serversDir, file))));
}
const med = runs.map(median);
const min = runs.map((r) => Math.min(...r));
for (const [i, file] of files.entries()) {
  process.stdout.write(`cold ${file}: median ${med[i].toFixed(1)} ms (${(med[i] / med[0]).toFixed(2)}×), fastest ${min[i].toFixed(1)} ms (${(min[i] / min[0]).toFixed(2)}×)\n`);
}

// Micro benchmark: the skills extension (SEP-2640). Front matter parsing (typical, and long
// blocks that must cost linear time: compare the 4 / 16 / 64 KiB rows per KiB), a client's
// verification of a file (size + SHA-256 + front matter), and server.skills() registering a
// folder (walk, realpath, read, digest every file).
//
//   npm run build && node bench/skills.bench.mjs [dist-dir]
//
// Prints process CPU time per operation (CPU, not wall time: a loaded machine matters less).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';

const dist = path.resolve(process.argv[2] ?? new URL('../dist', import.meta.url).pathname);
const { McpServer, parseSkillFile, verifySkillFile } = await import(pathToFileURL(`${dist}/index.js`).href);

const cpu = () => {
  const { user, system } = process.cpuUsage();
  return user + system; // µs
};
// Synchronous operations are not awaited (an await per call would be most of a 10 µs parse).
async function run(fn) {
  const result = fn();
  if (result instanceof Promise) await result;
}
async function bench(name, fn, ms = 400) {
  for (let i = 0, n = ms > 500 ? 5 : 500; i < n; i++) await run(fn); // warm up
  let calls = 0;
  const start = cpu();
  const end = performance.now() + ms;
  while (performance.now() < end) {
    await run(fn);
    calls++;
  }
  const us = (cpu() - start) / calls;
  console.log(`${name.padEnd(58)} ${us.toFixed(2).padStart(10)} µs CPU / op`);
  return us;
}

const typical = '---\nname: pdf-processing\ndescription: Extract text and tables from PDF files, fill forms, merge documents.\nlicense: Apache-2.0\nmetadata:\n  author: example-org\n  version: "2.1"\nallowed-tools: Bash(git:*) Read\n---\n\n# PDF\n\nBody.\n';
await bench('parseSkillFile: typical SKILL.md (8 fields)', () => parseSkillFile(typical));
for (const kib of [4, 16, 64]) {
  const lines = [];
  let size = 0;
  for (let i = 0; size < kib * 1024 - 200; i++) {
    const line = `  key${i}: "value number ${i} with some text"`;
    lines.push(line);
    size += line.length + 1;
  }
  const text = `---\nname: big\ndescription: d\nmetadata:\n${lines.join('\n')}\n---\n`;
  const us = await bench(`parseSkillFile: ${kib} KiB of metadata`, () => parseSkillFile(text));
  console.log(`${''.padEnd(58)} ${(us / kib).toFixed(2).padStart(10)} µs CPU / KiB`);
}

const sha = (b) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const skillBytes = new TextEncoder().encode(typical);
for (const [label, bytes] of [['1 KiB file', new Uint8Array(1024).fill(97)], ['1 MiB file', new Uint8Array(1024 * 1024).fill(97)]]) {
  const entry = {
    uri: 'skill://pdf-processing/SKILL.md',
    frontmatter: parseSkillFile(typical).frontmatter,
    resources: [{ uri: 'skill://pdf-processing/SKILL.md', digest: sha(skillBytes), size: skillBytes.length }, { uri: 'skill://pdf-processing/f', digest: sha(bytes), size: bytes.length }],
  };
  await bench(`verifySkillFile: ${label}`, () => verifySkillFile(entry, 'skill://pdf-processing/f', bytes));
  if (label === '1 KiB file') await bench('verifySkillFile: SKILL.md (digest + front matter)', () => verifySkillFile(entry, entry.uri, skillBytes));
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpkit-skills-bench-'));
try {
  for (let s = 0; s < 10; s++) {
    const root = path.join(dir, `skill-${s}`);
    fs.mkdirSync(path.join(root, 'references'), { recursive: true });
    fs.writeFileSync(path.join(root, 'SKILL.md'), typical.replace('pdf-processing', `skill-${s}`));
    for (let f = 0; f < 20; f++) fs.writeFileSync(path.join(root, 'references', `f${f}.md`), 'x'.repeat(4096));
  }
  await bench('server.skills(): 10 skills × 21 files of 4 KiB', () => new McpServer({ name: 'b', version: '1' }).skills(dir), 1000);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

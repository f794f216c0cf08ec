// Micro benchmark: URI-template matching (resources/read resolves every
// templated URI this way). Typical short URIs, and adversarial long ones
// that a backtracking matcher takes quadratic time on.
//
//   npm run build && node bench/uri-template.bench.mjs [dist-dir]
//
// Prints process CPU time per match (lower is better; CPU time, not wall time,
// so a loaded machine matters less). The long cases must grow linearly with
// the URI length: compare the 5,000 / 10,000 / 20,000 rows.
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const dist = resolve(process.argv[2] ?? new URL('../dist', import.meta.url).pathname);
const { UriTemplate } = await import(pathToFileURL(`${dist}/index.js`).href); // the package entry: dist/ is bundled

let sink = 0;
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return user + system; // µs
};
function bench(name, fn, ms = 400) {
  for (let i = 0; i < 2000; i++) sink += fn() ? 1 : 0; // warm up
  let calls = 0;
  const start = cpu();
  const wallEnd = performance.now() + ms;
  while (performance.now() < wallEnd) {
    for (let i = 0; i < 20; i++) sink += fn() ? 1 : 0;
    calls += 20;
  }
  const us = (cpu() - start) / calls;
  console.log(`${name.padEnd(60)} ${us.toFixed(2).padStart(10)} µs CPU / match`);
}

const typical = [
  ['file:///{+path}', 'file:///home/user/projects/mcpkit/src/index.ts'],
  ['test://template/{id}/data', 'test://template/12345/data'],
  ['users://{userId}/profile{?fields}', 'users://42/profile?fields=name,email'],
  ['date://{year}-{month}-{day}', 'date://2026-11-30'],
  ['docs://{+section}/{+page}.md', 'docs://guide/getting-started/install.md'],
];
for (const [template, uri] of typical) {
  const t = new UriTemplate(template);
  bench(`${template}  (${uri.length} chars)`, () => t.match(uri));
}

const adversarial = [
  ['date://{year}-{month}-{day}', (n) => `date://${'1-'.repeat(n / 2)}/`],
  ['db://{schema}.{table}', (n) => `db://${'a.'.repeat(n / 2)}/`],
  ['x://{a}{b}{c}', (n) => `x://${'a'.repeat(n)}/`],
  ['docs://{+section}/{+page}.md', (n) => `docs://${'a/'.repeat(n / 2)}?.md`],
];
for (const [template, make] of adversarial) {
  const t = new UriTemplate(template);
  t.match(make(1_000)); // warm up
  for (const n of [5_000, 10_000, 20_000]) {
    const uri = make(n);
    const start = cpu();
    for (let i = 0; i < 3; i++) sink += t.match(uri) ? 1 : 0;
    const ms = (cpu() - start) / 3 / 1000;
    console.log(`${`${template}  ${n} chars`.padEnd(60)} ${ms.toFixed(2).padStart(10)} ms CPU / match`);
  }
}
if (sink < 0) console.log(sink);

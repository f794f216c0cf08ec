#!/usr/bin/env node
// What the features of the second wave cost a request when they are NOT configured (their
// defaults), in-process: byte quotas (the in-flight charge and release), principal binding (the
// quota owner and the session's principal check), auth (absent: the optional reads the engine
// does), telemetry (the diagnostics-channel check), and the session store interface (get, touch).
//   node bench/features.bench.mjs [tsc-output-dir]
// Prints ns per request for each and its share of mcpkit's ~40 µs of server CPU per HTTP request.
// It times internals, which the bundled dist/ has no files for (scripts/bundle.mjs): it compiles src/
// with tsc into a temporary folder first, or loads another checkout's unbundled output
// (`npx tsc -p tsconfig.build.json --outDir DIR` there) to compare.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = process.argv[2] === undefined ? compileSources() : path.resolve(process.argv[2]);
const load = (p) => import(pathToFileURL(path.join(dist, p)).href);
const { InflightBytes } = await load('transports/http/inflight.js');
const { quotaOwnerOfRequest } = await load('transports/http/client-address.js');
const { samePrincipal } = await load('protocol/request/principal.js');
const { tracingRequests } = await load('protocol/observability/channels.js');
const { MemorySessionStore } = await load('stores/memory.js');
const { SessionRegistry } = await load('transports/http/sessions.js');

const PER_REQUEST_NS = 40_000;
const N = 2_000_000;
let sink = 0;
function time(name, fn) {
  for (let i = 0; i < 200_000; i++) fn(i); // warm-up
  const runs = [];
  for (let r = 0; r < 5; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < N; i++) fn(i);
    runs.push(Number(process.hrtime.bigint() - t0) / N);
  }
  runs.sort((a, b) => a - b);
  const ns = runs[2];
  process.stdout.write(`${name.padEnd(58)} ${ns.toFixed(1).padStart(7)} ns/request  ${((100 * ns) / PER_REQUEST_NS).toFixed(2).padStart(5)} %\n`);
}

const inflight = new InflightBytes(16 * 1024 * 1024);
const address = '127.0.0.1';
time('byte quota: charge + release (default 16 MiB per client)', (i) => {
  const release = inflight.charge(quotaOwnerOfRequest(undefined, address), 305, i);
  release();
});
time('principal binding: quota owner of an unauthenticated call', () => {
  sink += quotaOwnerOfRequest(undefined, address).length;
});
time('principal binding: session principal check (no auth)', () => {
  if (samePrincipal(undefined, undefined)) sink++;
});
const engineLike = { auth: undefined, authenticate: undefined };
time('auth not configured: the engine reads (metadata, gate, authorize)', () => {
  if (engineLike.auth?.metadata() !== undefined) sink++;
  if (engineLike.auth !== undefined || engineLike.authenticate !== undefined) sink++;
  if (engineLike.auth?.authorize() !== undefined) sink++;
});
time('telemetry: no subscriber (tracingRequests())', () => {
  if (tracingRequests()) sink++;
});
const registry = new SessionRegistry(new MemorySessionStore(), 10_000, 100, undefined);
const store = registry.store;
const session = { id: 'x'.repeat(32), closed: false, principal: undefined, kind: 'streamable' };
store.set(session.id, session);
time('session store interface: get (sync store) + touch', () => {
  const s = registry.get(session.id, undefined);
  if (s instanceof Promise) sink++;
  registry.touch(session);
});
store.close();
if (sink === -1) process.stdout.write('');

/** src/ as tsc emits it, one file per module (not bundled), in a folder removed on exit. */
function compileSources() {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpkit-features-'));
  process.on('exit', () => fs.rmSync(out, { recursive: true, force: true }));
  const tsc = createRequire(path.join(root, 'package.json')).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json'), '--outDir', out, '--declaration', 'false'], { stdio: 'inherit' });
  return out;
}

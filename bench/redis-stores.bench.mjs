// Micro benchmark: what the mcpkit/redis stores cost per call against a private
// redis-server on 127.0.0.1 (started here, no persistence), next to the memory
// stores in the same run. Needs `npm run build` and redis-server on the PATH.
//
//   node bench/redis-stores.bench.mjs [--n 5000]
//
// Prints, per operation, the wall time per call one at a time (latency: one
// round trip each) and with 64 calls in flight (throughput), plus this
// process's CPU per call. Read the ratios within one run; the machine is shared.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { MemoryEventStore } from '../dist/http.js';
import { MemoryNotificationBus, MemoryTaskStore } from '../dist/index.js';
import { RedisEventStore, RedisNotificationBus, RedisTaskStore } from '../dist/redis.js';
import { abArgs } from './lib/ab-args.mjs';

const n = abArgs(undefined, { known: ['n'] }).num('n', 5000);

async function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'mcpkit-bench-redis-'));
const port = await freePort();
const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
const client = createClient({ url: `redis://127.0.0.1:${port}` });
client.on('error', () => undefined);
for (;;) {
  try {
    await client.connect();
    break;
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const message = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok-1', progress: 42, total: 100, message: 'working on step 42 of 100' } };

async function measure(label, run) {
  for (let i = 0; i < Math.min(500, n); i++) await run(i); // warm-up
  const cpu0 = process.cpuUsage();
  let t0 = performance.now();
  for (let i = 0; i < n; i++) await run(i);
  const serial = ((performance.now() - t0) * 1000) / n;
  const cpu = process.cpuUsage(cpu0);
  t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: 64 }, async () => {
    while (next < n) await run(next++);
  }));
  const parallel = ((performance.now() - t0) * 1000) / n;
  return { label, serial, parallel, cpu: (cpu.user + cpu.system) / n };
}

const rows = [];
const memoryEvents = new MemoryEventStore({ maxEvents: 1e9, maxBytes: 1e12, maxBytesPerOwner: 1e12, maxBytesPerStream: 1e12, maxEventsPerStream: 1e9 });
const redisEvents = new RedisEventStore(client, { prefix: 'bench:', maxEvents: 1e9, maxBytes: 1e12, maxBytesPerOwner: 1e12, maxBytesPerStream: 1e12, maxEventsPerStream: 1e9 });
for (const [name, store] of [['memory', memoryEvents], ['redis', redisEvents]]) {
  rows.push(await measure(`event store append (${name})`, (i) => store.append(`owner-${i % 100}`, `stream-${i % 100}`, message, 'client')));
  const first = await store.append('replayer', 'replay-stream', message);
  for (let i = 0; i < 100; i++) await store.append('replayer', 'replay-stream', message);
  rows.push(await measure(`replay of 100 events (${name})`, () => store.replayAfter('replayer', first, () => undefined)));
}
for (const [name, store] of [['memory', new MemoryTaskStore({ maxTasks: 1e9, maxTasksPerOwner: 1e9, maxBytes: 1e12, maxBytesPerOwner: 1e12 })], ['redis', new RedisTaskStore(client, { prefix: 'bench:', maxTasks: 1e9, maxTasksPerOwner: 1e9, maxBytes: 1e12, maxBytesPerOwner: 1e12 })]]) {
  rows.push(await measure(`task create + update + get (${name})`, async () => {
    const task = await store.create({ owner: 'o' });
    await store.update(task.taskId, { status: 'completed', result: { content: [{ type: 'text', text: 'done' }] } });
    await store.get(task.taskId);
  }));
  store.close?.();
}
for (const [name, bus] of [['memory', new MemoryNotificationBus()], ['redis', new RedisNotificationBus(client, { prefix: 'bench:' })]]) {
  let waiting = new Map();
  let seq = 0;
  bus.subscribe((event) => waiting.get(event.uri)?.());
  await bus.ready?.();
  rows.push(await measure(`bus publish → delivered (${name})`, () => {
    const uri = `file:///${seq++}`;
    const delivered = new Promise((resolve) => waiting.set(uri, resolve));
    return Promise.all([bus.publish({ type: 'resource_updated', uri }), delivered]).then(() => waiting.delete(uri));
  }));
  await bus.close?.();
}

console.log(`\n${n} calls each; µs per call (one at a time / 64 in flight), and this process's CPU µs per call (one at a time)\n`);
console.log('| operation | µs one at a time | µs with 64 in flight | client CPU µs |');
console.log('| --- | ---: | ---: | ---: |');
for (const row of rows) console.log(`| ${row.label} | ${row.serial.toFixed(1)} | ${row.parallel.toFixed(1)} | ${row.cpu.toFixed(1)} |`);

await redisEvents.close();
await client.close();
redis.kill('SIGKILL');
rmSync(dir, { recursive: true, force: true });

#!/usr/bin/env node
// Big catalogues (issue 29, point 5), in-process: servers of 1,000 and 10,000 tools, each answering
// `tools/list` through the connection the HTTP engine uses, the answer serialised as a transport
// would. Linear listing shows as a 10,000 : 1,000 ratio near 10 for the whole list and near 1 for
// one page; the heap a tool costs is measured after GC.
//   npm run build && node --expose-gc bench/catalogue.bench.mjs [--reps 7] [--page 100]
import { abArgs } from './lib/ab-args.mjs';
const { num } = abArgs(undefined, { known: ['reps', 'page'] });
const reps = num('reps', 7);
const pageSize = num('page', 100);
if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc bench/catalogue.bench.mjs');
const { McpServer } = await import(new URL('../dist/index.js', import.meta.url).href);

const input = { type: 'object', properties: { text: { type: 'string', description: 'What to echo' }, times: { type: 'integer', minimum: 1 } }, required: ['text'] };
const heap = () => {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
};
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ignore = () => undefined;
const signal = { aborted: false, reason: undefined, addEventListener() {}, removeEventListener() {} };
const extra = { send: ignore, signal, requestInfo: { headers: {}, remoteAddress: '127.0.0.1' }, protocolVersion: '2025-11-25', authInfo: undefined, closeStream: undefined };

function build(count, paged) {
  const server = new McpServer({ name: 'catalogue', version: '1.0.0', ...(paged && { results: { pageSize } }) });
  for (let i = 0; i < count; i++) {
    server.tool(`tool_${String(i).padStart(5, '0')}`, { description: `Tool number ${i}: echoes its text`, input }, ({ text }) => text);
  }
  return server;
}

let id = 0;
async function ask(connection, method, params) {
  const answer = await connection.handleMessage({ jsonrpc: '2.0', id: ++id, method, params }, extra);
  return JSON.stringify(answer);
}

async function measure(count) {
  const before = heap();
  const t0 = performance.now();
  const whole = build(count, false);
  const registerMs = performance.now() - t0;
  const perToolBytes = (heap() - before) / count;
  const paged = build(count, true);
  const wholeConnection = whole.openConnection({ send: ignore, stateless: true });
  const pagedConnection = paged.openConnection({ send: ignore, stateless: true });

  // The first list builds the cached wire view; later lists reuse it.
  const f0 = performance.now();
  const firstWhole = await ask(wholeConnection, 'tools/list', {});
  const firstListMs = performance.now() - f0;
  const wholeMs = [];
  const pageMs = [];
  const lastPageMs = [];
  let cursor;
  let pages = 0;
  // Walk every page once to find the last cursor.
  for (let next = {}; ; pages++) {
    const body = JSON.parse(await ask(pagedConnection, 'tools/list', next));
    if (body.result.nextCursor === undefined) break;
    cursor = body.result.nextCursor;
    next = { cursor };
  }
  for (let r = 0; r < reps; r++) {
    let t = performance.now();
    await ask(wholeConnection, 'tools/list', {});
    wholeMs.push(performance.now() - t);
    t = performance.now();
    await ask(pagedConnection, 'tools/list', {});
    pageMs.push(performance.now() - t);
    t = performance.now();
    await ask(pagedConnection, 'tools/list', { cursor });
    lastPageMs.push(performance.now() - t);
  }
  const last = `tool_${String(count - 1).padStart(5, '0')}`;
  const c0 = performance.now();
  await ask(wholeConnection, 'tools/call', { name: last, arguments: { text: 'x' } });
  const firstCallMs = performance.now() - c0;
  const callMs = [];
  for (let r = 0; r < reps * 20; r++) {
    const t = performance.now();
    await ask(wholeConnection, 'tools/call', { name: last, arguments: { text: 'x' } });
    callMs.push(performance.now() - t);
  }
  return { count, registerMs, perToolBytes, firstListMs, wholeMs: median(wholeMs), wholeBytes: firstWhole.length, pageMs: median(pageMs), lastPageMs: median(lastPageMs), pages: pages + 1, firstCallMs, callMs: median(callMs) };
}

const small = await measure(1_000);
const big = await measure(10_000);
const row = (label, key, digits = 2) => `| ${label} | ${small[key].toFixed(digits)} | ${big[key].toFixed(digits)} | ${(big[key] / small[key]).toFixed(2)} |`;
console.log(`tools/list and tools/call on catalogues of 1,000 and 10,000 tools (in-process, median of ${reps}; page size ${pageSize})\n`);
console.log('| | 1,000 tools | 10,000 tools | ratio |');
console.log('| --- | ---: | ---: | ---: |');
console.log(row('register every tool (ms)', 'registerMs'));
console.log(row('heap per tool after GC (bytes)', 'perToolBytes', 0));
console.log(row('first tools/list, whole (ms; builds the wire view)', 'firstListMs'));
console.log(row('tools/list, whole (ms)', 'wholeMs'));
console.log(row('tools/list, whole (bytes)', 'wholeBytes', 0));
console.log(row(`tools/list, first page of ${pageSize} (ms)`, 'pageMs', 3));
console.log(row('tools/list, last page (ms)', 'lastPageMs', 3));
console.log(row('first tools/call of the last tool (ms)', 'firstCallMs', 3));
console.log(row('tools/call of the last tool, warm (ms)', 'callMs', 4));

#!/usr/bin/env node
// The protocol layer alone, in-process: the captured client's `tools/call` of each HTTP mode
// (bench/fixtures/traffic.json) parsed, handed to the connection the HTTP engine would use with
// the `extra` a POST builds, and its answer serialised — no sockets, so the figure is stable
// enough to compare builds on a busy machine (issue 16).
//   npm run build && node bench/protocol.bench.mjs [--n 200000] [--reps 5] [dist-dir]
// Prints CPU µs per request (median of the reps) for each mode; pass another build's dist to compare.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { abArgs } from './lib/ab-args.mjs';
const { num: opt, files: positional } = abArgs();
const dist = path.resolve(positional[0] ?? new URL('../dist', import.meta.url).pathname);
const N = opt('n', 200_000);
const reps = opt('reps', 5);
const { createServer } = await import(pathToFileURL(path.join(dist, '../bench/servers/mcpkit-server.mjs')).href).catch(() =>
  import(new URL('./servers/mcpkit-server.mjs', import.meta.url).href),
);
const traffic = JSON.parse(readFileSync(new URL('./fixtures/traffic.json', import.meta.url), 'utf8'));

const headersOf = (raw) => {
  const headers = {};
  for (let i = 0; i < raw.length; i += 2) headers[raw[i].toLowerCase()] = raw[i + 1];
  return headers;
};
const ignore = () => undefined;
const signal = { aborted: false, reason: undefined, addEventListener() {}, removeEventListener() {} };

function splitId(body) {
  const at = body.lastIndexOf('"id":');
  const end = body.indexOf('}', at);
  return [body.slice(0, at + 5), body.slice(end)];
}

async function mode(name) {
  const fixture = traffic.modes[name];
  const server = createServer();
  const connection = server.openConnection(name === 'session' ? { send: ignore } : { send: ignore, stateless: true });
  const headers = headersOf(fixture.call.rawHeaders);
  const version = headers['mcp-protocol-version'];
  const extraFor = () => ({
    send: ignore,
    signal,
    requestInfo: { headers, remoteAddress: '127.0.0.1' },
    protocolVersion: version,
    authInfo: undefined,
    closeStream: undefined,
  });
  if (name === 'session') for (const open of fixture.open) await connection.handleMessage(JSON.parse(open.body), extraFor());
  const body = fixture.call.body;
  // Every request its own id, as the replay sends them (a session refuses an id already in flight).
  const [head, tail] = splitId(body);
  let id = 1;
  let bytes = 0;
  const one = () =>
    // handleMessage answers a synchronous tool with the response itself (a promise on older builds).
    Promise.resolve(connection.handleMessage(JSON.parse(head + id++ + tail), extraFor())).then((answer) => {
      if (answer.result === undefined) throw new Error(`unexpected answer ${JSON.stringify(answer)}`);
      bytes += JSON.stringify(answer).length;
    });
  const batch = async (n) => {
    // 32 in flight, like the HTTP bench's connections.
    for (let i = 0; i < n; i += 32) await Promise.all(Array.from({ length: 32 }, one));
  };
  await batch(50_000);
  const runs = [];
  for (let r = 0; r < reps; r++) {
    const t0 = process.cpuUsage();
    await batch(N);
    const t = process.cpuUsage(t0);
    runs.push((t.user + t.system) / N);
  }
  runs.sort((a, b) => a - b);
  if (bytes === 0) throw new Error('no answer');
  return runs[Math.floor(runs.length / 2)];
}

for (const name of ['stateless', 'session', 'modern']) {
  const us = await mode(name);
  process.stdout.write(`${name.padEnd(10)} ${us.toFixed(2).padStart(6)} µs CPU/request (protocol layer + JSON parse/stringify)\n`);
}

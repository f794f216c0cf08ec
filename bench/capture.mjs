#!/usr/bin/env node
// Captures what the official SDK v2 client (@modelcontextprotocol/client, a root devDependency)
// sends over Streamable HTTP in each bench mode, headers and bodies byte for byte, and writes
// bench/fixtures/traffic.json, which bench/lib/http.mjs replays. Regenerate after a client upgrade:
//   npm run build && node bench/capture.mjs
// The capturing server is a node:http proxy in front of mcpkit's bench server (so the client gets
// real answers and proceeds as it would against any server); it records every request it forwards.
import http from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createNodeHandler } from '../dist/http.js';
import { createServer } from './servers/mcpkit-server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, 'fixtures', 'traffic.json');
/** The echo text the client sends; the replay swaps it for a fresh text per request. */
export const MARK = 'bench-capture-text';

const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));

async function capture(mode) {
  const upstream = http.createServer(createNodeHandler(createServer(), mode === 'stateless' ? { stateless: true } : {}));
  const upPort = await listen(upstream);
  const seen = [];
  const proxy = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method, path: req.url, rawHeaders: req.rawHeaders, body });
      const fwd = http.request({ host: '127.0.0.1', port: upPort, method: req.method, path: req.url, headers: { ...req.headers, host: `127.0.0.1:${upPort}` } }, (up) => {
        res.writeHead(up.statusCode, up.headers);
        up.pipe(res);
      });
      fwd.on('error', (e) => res.destroy(e));
      fwd.end(body);
    });
  });
  const port = await listen(proxy);
  const options = { capabilities: {} };
  if (mode === 'modern') options.versionNegotiation = { mode: { pin: '2026-07-28' } };
  const client = new Client({ name: 'bench-client', version: '1.0.0' }, options);
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  const opened = seen.length;
  const result = await client.callTool({ name: 'echo', arguments: { text: MARK } });
  if (result.content?.[0]?.text !== MARK) throw new Error(`${mode}: echo answered ${JSON.stringify(result)}`);
  const calls = seen.slice(opened).filter((r) => r.method === 'POST' && r.body.includes(MARK));
  if (calls.length !== 1) throw new Error(`${mode}: expected one tools/call POST, saw ${calls.length}`);
  await client.close();
  proxy.close();
  upstream.close();
  proxy.closeAllConnections();
  upstream.closeAllConnections();
  // The handshake: every POST before the first call (initialize, notifications/initialized, or the
  // 2026-07-28 server/discover probe). GETs (the standalone SSE stream) and DELETEs are not replayed.
  const open = seen.slice(0, opened).filter((r) => r.method === 'POST');
  return { open: open.map(strip), call: strip(calls[0]) };
}

/** Keeps the request as sent; only the Host port (a random one here) is rewritten at replay. */
function strip({ method, path: p, rawHeaders, body }) {
  return { method, path: p, rawHeaders, body: JSON.parse(body) && body };
}

const pkg = JSON.parse(readFileSync(path.join(here, '..', 'node_modules', '@modelcontextprotocol', 'client', 'package.json'), 'utf8'));
const fixtures = { client: `${pkg.name} ${pkg.version}`, node: process.version, mark: MARK, modes: {} };
for (const mode of ['stateless', 'session', 'modern']) fixtures.modes[mode] = await capture(mode);
writeFileSync(out, JSON.stringify(fixtures, null, 2) + '\n');
process.stdout.write(`wrote ${path.relative(process.cwd(), out)}\n`);

// Physical-limit reference for HTTP: a node:http server that reads a JSON body,
// parses it and answers JSON. No MCP logic beyond answering the methods the
// driver sends; hands out a session id on initialize so the session mode runs
// through the same client code.
import http from 'node:http';
import { answer } from './reference-answer.mjs';
import { randomUUID } from 'node:crypto';
import { host, port, installMemoryProbe } from './_common.mjs';

installMemoryProbe();

function send(res, msg, result) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result });
  const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
  if (msg.method === 'initialize') headers['mcp-session-id'] = randomUUID();
  res.writeHead(200, headers).end(body);
}

http
  .createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const msg = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (msg.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      const result = answer(msg);
      if (result instanceof Promise) result.then((r) => send(res, msg, r));
      else send(res, msg, result);
    });
  })
  .listen(port, host);

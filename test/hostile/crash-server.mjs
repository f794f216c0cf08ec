// A real mcpkit server in its own process (built from dist/) for the hostile
// suite: `--mode stdio|node|fetch|express`, `--modern-only` (protocolVersions:
// 2026-07-28 only). HTTP modes print `READY <url>` on stdout. No handler for
// unhandled rejections is installed: Node's default ends the process, which is
// exactly what the tests check never happens.
//
// Tools: echo_structured (returns its arguments as structuredContent), poison
// {kind, where} (a BigInt, a cycle, a throwing toJSON or a 100,000-deep value in
// the result, in error data or in a log notification), ask {times} (ctx.elicit), progress
// (three progress notifications, then the result), sleepy (waits for its signal),
// flood {count} (log notifications it does not wait for), print (console.log/info/debug).
// stdio options from the environment: CRASH_EOF_GRACE_MS, CRASH_MAX_OUTPUT, CRASH_GAP (notificationGapMs).
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { JsonRpcProtocolError, McpServer, StdioTransport } from '../../dist/index.js';
import { createFetchHandler, listen } from '../../dist/http.js';

const args = process.argv.slice(2);
const mode = args[args.indexOf('--mode') + 1] ?? 'stdio';
const modernOnly = args.includes('--modern-only');

// One line per logged error, no stack: the tests read stderr for anything else.
const logger = {
  error: (message, error) => process.stderr.write(`[logged] ${message} ${error?.name ?? ''}\n`),
  warn: (message) => process.stderr.write(`[logged] ${message}\n`),
};

const server = new McpServer({ name: 'crash-fixture', version: '1.0.0', logger, ...(modernOnly ? { protocolVersions: ['2026-07-28'] } : {}) });
const anyObject = { type: 'object' };

function deep(depth) {
  let value = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function poison(kind) {
  switch (kind) {
    case 'bigint':
      return { n: 10n };
    case 'cycle': {
      const value = { name: 'loop' };
      value.self = value;
      return value;
    }
    case 'tojson':
      return { toJSON: () => { throw new Error('no JSON for you'); } };
    default:
      return deep(100_000);
  }
}

server.tool('echo_structured', { description: 'Returns its arguments as structuredContent', input: anyObject }, (input) => ({
  content: [{ type: 'text', text: 'echoed' }],
  structuredContent: input,
}));

server.tool('poison', { description: 'Answers with a value JSON cannot carry', input: anyObject }, async (input, ctx) => {
  const value = poison(input.kind);
  if (input.where === 'error') throw new JsonRpcProtocolError(-32000, 'a poisoned error', value);
  if (input.where === 'log') await ctx.log('error', value);
  return { content: [{ type: 'text', text: 'poisoned' }], structuredContent: { value } };
});

server.tool('ask', { description: 'Asks the user to confirm, `times` times (default 1)', input: anyObject }, async (input, ctx) => {
  let answer;
  for (let i = 0; i < (input.times ?? 1); i++) answer = await ctx.elicit({ message: 'Proceed?', requestedSchema: { type: 'object', properties: {} } });
  return `answer: ${answer.action}`;
});

server.tool('progress', { description: 'Reports progress 1, 2, 3', input: anyObject }, async (_input, ctx) => {
  await ctx.progress(1, 3, 'one');
  await ctx.progress(2, 3, 'two');
  await ctx.progress(3, 3, 'three');
  return 'progressed';
});

server.tool('sleepy', { description: 'Waits until its request is aborted', input: anyObject }, async (_input, ctx) => {
  await sleep(3_600_000, undefined, { signal: ctx.signal });
  return 'woke up';
});

server.tool('flood', { description: 'Sends `count` log notifications of 1 KB without waiting for any', input: anyObject }, (input, ctx) => {
  for (let i = 0; i < input.count; i++) void ctx.log('info', 'x'.repeat(1000)).catch(() => undefined);
  return 'flooded';
});

server.tool('print', { description: 'Prints to the console, then answers', input: anyObject }, () => {
  console.log('stray console.log');
  console.info('stray console.info');
  console.debug('stray console.debug');
  return 'printed';
});

async function fetchBridge(handler, req, res) {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  const hasBody = req.method === 'POST';
  const response = await handler(new Request(`http://${req.headers.host}${req.url}`, {
    method: req.method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: req, duplex: 'half' } : {}),
  }));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) return void res.end();
  for await (const chunk of response.body) res.write(chunk);
  res.end();
}

async function serve() {
  switch (mode) {
    case 'stdio': {
      const { CRASH_EOF_GRACE_MS: eofGraceMs, CRASH_MAX_OUTPUT: maxOutputBuffer } = process.env;
      await server.connect(new StdioTransport({
        ...(process.env.CRASH_GAP === undefined ? {} : { notificationGapMs: Number(process.env.CRASH_GAP) }),
        ...(eofGraceMs === undefined ? {} : { eofGraceMs: Number(eofGraceMs) }),
        ...(maxOutputBuffer === undefined ? {} : { maxOutputBuffer: Number(maxOutputBuffer) }),
      }));
      return;
    }
    case 'node': {
      const listener = await listen(server, { port: 0 });
      process.stdout.write(`READY ${listener.url}\n`);
      return;
    }
    case 'fetch': {
      const handler = createFetchHandler(server, { path: '/mcp' });
      const http = createServer((req, res) => void fetchBridge(handler, req, res).catch(() => res.destroy()));
      await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
      process.stdout.write(`READY http://127.0.0.1:${http.address().port}/mcp\n`);
      return;
    }
    case 'express': {
      const { default: express } = await import('express');
      const { mountMcpHttp } = await import('../../dist/express.js');
      const app = express();
      mountMcpHttp(app, server, { path: '/mcp', stateless: false });
      const http = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => http.once('listening', resolve));
      process.stdout.write(`READY http://127.0.0.1:${http.address().port}/mcp\n`);
      return;
    }
    default:
      throw new Error(`unknown mode ${mode}`);
  }
}

await serve();

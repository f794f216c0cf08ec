import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchSkill } from '../../src/client.js';
import { listeningUrl } from '../support/process.js';

// Every runnable example is executed here, the way a user would run it.
const root = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function run(file: string, args: string[] = [], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, [file, ...args], { cwd: root, env: { ...process.env, PORT: '0', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  return child;
}

const urlOf = listeningUrl;

/** Reads stdout lines until `count` JSON messages arrived. */
async function lines(child: ChildProcess, count: number): Promise<unknown[]> {
  const out: unknown[] = [];
  let buffer = '';
  for await (const chunk of child.stdout!) {
    buffer += String(chunk);
    let nl: number;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      out.push(JSON.parse(buffer.slice(0, nl)));
      buffer = buffer.slice(nl + 1);
      if (out.length === count) return out;
    }
  }
  throw new Error(`stdout ended after ${out.length} of ${count} messages`);
}

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const post = async (url: string, body: unknown, extra: Record<string, string> = {}): Promise<unknown> =>
  (await fetch(url, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) })).json();

/** Opens a legacy session (initialize + initialized) and returns the headers later requests carry. */
async function session(url: string, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const init = await fetch(url, {
    method: 'POST',
    headers: { ...headers, ...extra },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
  });
  const id = init.headers.get('mcp-session-id');
  if (!id) throw new Error(`no session: ${init.status} ${await init.text()}`);
  const sessionHeaders = { ...extra, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };
  await fetch(url, { method: 'POST', headers: { ...headers, ...sessionHeaders }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  return sessionHeaders;
}

describe('examples', () => {
  it('seed-stdio answers the seed request line with the exact seed response line', async () => {
    const child = run('examples/seed-stdio/server.js');
    child.stdin!.write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}\n');
    let text = '';
    for await (const chunk of child.stdout!) {
      text += String(chunk);
      if (text.includes('\n')) break;
    }
    expect(text).toBe('{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}]}}\n');
  });

  it('everything-server serves stdio with --stdio', async () => {
    const child = run('examples/everything-server/main.js', ['--stdio']);
    child.stdin!.write(
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n' +
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_simple_text"}}\n',
    );
    const [init, call] = await lines(child, 2);
    expect(init).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25', serverInfo: { name: 'mcpkit-everything-server' } } });
    expect(call).toEqual({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'This is a simple text response for testing.' }] } });
  });

  it('everything-server serves Streamable HTTP and prints how to connect', async () => {
    const child = run('examples/everything-server/main.js');
    const url = await urlOf(child);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const discover = await post(url, {
      jsonrpc: '2.0', id: 1, method: 'server/discover',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
    }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' });
    expect(discover).toMatchObject({ id: 1, result: { supportedVersions: ['2026-07-28'], resultType: 'complete' } });
  });

  it('skills serves its skill folder: skills/list, then the files, verified against the entry', async () => {
    const url = await urlOf(run('examples/skills/server.js'));
    const sessionHeaders = await session(url);
    const list = (await post(url, { jsonrpc: '2.0', id: 1, method: 'skills/list', params: {} }, sessionHeaders)) as { result: { skills: { uri: string }[] } };
    expect(list.result.skills.map((s) => s.uri)).toEqual(['skill://commit-messages/SKILL.md']);
    let id = 2;
    const read = async (uri: string) => ((await post(url, { jsonrpc: '2.0', id: id++, method: 'resources/read', params: { uri } }, sessionHeaders)) as { result: { contents: object[] } }).result;
    const skill = await fetchSkill(read, list.result.skills[0]);
    expect(skill.frontmatter).toMatchObject({ name: 'commit-messages', metadata: { owner: 'platform-team' } });
    expect(await skill.readText('references/EXAMPLES.md')).toContain('Closes #412');
  });

  it('http-node serves structured output', async () => {
    const url = await urlOf(run('examples/http-node/server.js'));
    const sessionHeaders = await session(url);
    expect(await post(url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } }, sessionHeaders)).toEqual({
      jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: '{"sum":5}' }], structuredContent: { sum: 5 } },
    });
  });

  it('openapi serves a YAML-described API as tools and calls it', async () => {
    const url = await urlOf(run('examples/openapi/server.js'));
    const sessionHeaders = await session(url);
    const listed = (await post(url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, sessionHeaders)) as { result: { tools: { name: string }[] } };
    expect(listed.result.tools.map((t) => t.name)).toEqual(['listTodos', 'addTodo']);
    const added = await post(url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'addTodo', arguments: { title: 'Ship it', done: false } } }, sessionHeaders);
    expect((added as { result: { structuredContent: unknown } }).result.structuredContent).toEqual({ id: 2, title: 'Ship it', done: false });
    const open = await post(url, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'listTodos', arguments: { done: false } } }, sessionHeaders);
    expect((open as { result: { structuredContent: { result: unknown[] } } }).result.structuredContent.result).toHaveLength(2);
  });

  it('http-fetch answers a Web Request with a Web Response', async () => {
    const script = `
      const { default: handler } = await import(${JSON.stringify(new URL('../../examples/http-fetch/server.js', import.meta.url).href)});
      const response = await handler.fetch(new Request('http://localhost/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'greet', arguments: { name: 'Ada' } } }),
      }));
      process.stdout.write(response.status + ' ' + await response.text() + '\\n');`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: root });
    children.push(child);
    let out = '';
    for await (const chunk of child.stdout) out += String(chunk);
    expect(out).toBe('200 {"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"Hello, Ada!"}]}}\n');
  });

  it('express mounts namespaced providers', async () => {
    const url = await urlOf(run('examples/express/server.js'));
    await post(url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'notes_add', arguments: { text: 'milk' } } });
    expect(await post(url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'notes_list', arguments: {} } })).toEqual({
      jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: '{"1":"milk"}' }] },
    });
  });

  it('middleware filters tools/list by caller, guards calls and times them', async () => {
    const child = run('examples/middleware/server.js');
    const url = await urlOf(child);
    const anonymous = await session(url);
    const admin = await session(url, { authorization: 'Bearer admin' });
    const names = async (who: Record<string, string>): Promise<string[]> => {
      const res = (await post(url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, who)) as { result: { tools: { name: string }[] } };
      return res.result.tools.map((t) => t.name);
    };
    expect(await names(anonymous)).toEqual(['status']);
    expect(await names(admin)).toEqual(['status', 'admin_reset']);
    const denied = (await post(url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'admin_reset' } }, anonymous)) as { result: Record<string, unknown> };
    expect(denied.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Tool admin_reset needs the admin role' }] });
    const allowed = (await post(url, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'admin_reset' } }, admin)) as { result: { _meta: Record<string, unknown> } };
    expect(allowed.result).toMatchObject({ content: [{ type: 'text', text: 'reset done' }] });
    expect(typeof allowed.result._meta['example/durationMs']).toBe('number');
    child.kill('SIGTERM');
    await once(child, 'exit');
  });

  it('composition serves two mounted servers as one, one reshaped by a transform, in both eras', async () => {
    const child = run('examples/composition/server.js');
    const url = await urlOf(child);
    const who = await session(url);
    const listed = (await post(url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, who)) as { result: { tools: { name: string; inputSchema: unknown }[] } };
    expect(listed.result.tools.map((t) => t.name)).toEqual(['ping', 'notes_add', 'weather_city_forecast']);
    expect(listed.result.tools[2]!.inputSchema).toEqual({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
    const forecast = (await post(url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'weather_city_forecast', arguments: { city: 'Oslo' } } }, who)) as { result: unknown };
    expect(forecast.result).toEqual({ content: [{ type: 'text', text: 'Sunny in Oslo (key ok)' }] });
    const hidden = (await post(url, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'weather_purge_cache', arguments: {} } }, who)) as { error: { code: number } };
    expect(hidden.error.code).toBe(-32602);
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' } };
    const read = (await post(url, { jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: 'notes+note://1', _meta: meta } }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'resources/read', 'mcp-name': 'notes+note://1' })) as { result: { contents: unknown[] } };
    expect(read.result.contents).toEqual([{ uri: 'notes+note://1', mimeType: 'text/plain', text: 'Buy milk' }]);
    child.kill('SIGTERM');
    await once(child, 'exit');
  });

  it('otel-console prints the tools/call span and the tool span under it, in the caller trace', async () => {
    const child = run('examples/otel-console/server.js');
    let stdout = '';
    // The span is printed when it ends, right after the answer is written.
    const printed = new Promise<void>((resolve) =>
      child.stdout!.on('data', (chunk) => {
        stdout += String(chunk);
        if (stdout.includes("name: 'tools/call greet'")) resolve();
      }),
    );
    const url = await urlOf(child);
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const _meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, traceparent: `00-${traceId}-00f067aa0ba902b7-01` };
    const modern = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'greet' };
    expect(await post(url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'greet', arguments: { name: 'Ada' }, _meta } }, modern)).toMatchObject({
      result: { content: [{ type: 'text', text: 'Hello, Ada!' }] },
    });
    await printed;
    expect(stdout).toContain("name: 'compose greeting'");
    expect(stdout).toContain(`traceId: '${traceId}'`);
    expect(stdout).toContain("'gen_ai.tool.name': 'greet'");
    expect(stdout).toContain("'network.transport': 'tcp'");
  });
});

/**
 * What handlers return is checked before it reaches a client (issue 28.2): an
 * invalid tool result becomes an isError result, an invalid resource or prompt
 * result a -32603, and the author gets one log line naming the tool, resource
 * or prompt and what it returned. TypeScript through casts here; the same in
 * plain JavaScript, in its own process over stdio, in
 * test/protocol/methods/result-checks-js.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { McpServer } from '../../../src/server/server.js';
import type { ToolReturn } from '../../../src/index.js';
import { connected, lastResponse } from '../support.js';

const TOOL_ANSWER = { content: [{ type: 'text', text: 'Internal error: the tool returned an invalid result' }], isError: true };

function make(): { server: McpServer; logged: string[] } {
  const logged: string[] = [];
  const server = new McpServer({ name: 'checks', version: '1.0.0', logger: { error: (message: string) => logged.push(message) } });
  const returns = (value: unknown): ToolReturn<undefined> => value as ToolReturn<undefined>;
  server.tool('txt', {}, () => returns({ content: [{ type: 'txt', value: 'x' }] }));
  server.tool('async_txt', {}, async () => returns({ content: [{ type: 'text', text: 1 }] }));
  server.tool('no_mime', {}, () => returns({ content: [{ type: 'image', data: 'AAAA' }] }));
  server.tool('bad_structured', {}, () => returns({ content: [], structuredContent: 'yes' }));
  server.tool('fine', {}, () => ({ content: [{ type: 'text', text: 'ok' }, { type: 'resource', resource: { uri: 'a://b', text: 't' } }] }));
  server.resource('test://seven', {}, () => 7 as unknown as string);
  server.resource('test://nothing', {}, () => undefined as unknown as string);
  server.resource('test://no-text', {}, () => ({ contents: [{ uri: 'test://no-text' }] }));
  server.prompt('nothing', {}, () => undefined as unknown as string);
  server.prompt('bare_content', {}, () => [{ role: 'user', content: 'hi' }] as never);
  server.prompt('bad_role', {}, () => [{ role: 'system', content: { type: 'text', text: 'x' } }] as never);
  return { server, logged };
}

describe('tool results', () => {
  it.each([
    ['txt', 'content[0] has type "txt" (expected text, image, audio, resource_link or resource). It returned {"content":[{"type":"txt","value":"x"}]}'],
    ['async_txt', 'content[0] is text content without a string "text". It returned {"content":[{"type":"text","text":1}]}'],
    ['no_mime', 'content[0] is image content without string "data" (base64) and "mimeType". It returned {"content":[{"type":"image","data":"AAAA"}]}'],
    ['bad_structured', '"structuredContent" is a string ("yes"), not an object. It returned {"content":[],"structuredContent":"yes"}'],
  ])('%s: the client gets an isError result, the author a log line', async (name, why) => {
    const { server, logged } = make();
    const c = await connected(server);
    expect(await c.callTool(name, {})).toEqual(TOOL_ANSWER);
    expect(logged).toEqual([`mcpkit: tool "${name}" returned an invalid result: ${why}; the client got an isError result.`]);
  });

  it('a valid result passes untouched and logs nothing', async () => {
    const { server, logged } = make();
    const c = await connected(server);
    expect(await c.callTool('fine', {})).toEqual({ content: [{ type: 'text', text: 'ok' }, { type: 'resource', resource: { uri: 'a://b', text: 't' } }] });
    expect(logged).toEqual([]);
  });

  it('on 2026-07-28 too', async () => {
    const { server, logged } = make();
    const c = await connected(server, { modern: true });
    expect(await c.callTool('txt', {})).toMatchObject({ ...TOOL_ANSWER, resultType: 'complete' });
    expect(logged).toHaveLength(1);
  });
});

describe('resource and prompt results', () => {
  it.each([
    ['resources/read', { uri: 'test://seven' }, 'resource', 'resource "test://seven" returned an invalid result: the reader returned a number (7) (expected a string, bytes, a contents object or an array of them). It returned 7'],
    ['resources/read', { uri: 'test://nothing' }, 'resource', 'resource "test://nothing" returned an invalid result: the reader returned undefined (expected a string, bytes, a contents object or an array of them). It returned undefined'],
    ['resources/read', { uri: 'test://no-text' }, 'resource', 'resource "test://no-text" returned an invalid result: contents[0] has neither a string "text" nor a base64 "blob". It returned {"contents":[{"uri":"test://no-text"}]}'],
    ['prompts/get', { name: 'nothing' }, 'prompt', 'prompt "nothing" returned an invalid result: the prompt returned undefined (expected a string, an array of messages or { messages }). It returned undefined'],
    ['prompts/get', { name: 'bare_content' }, 'prompt', 'prompt "bare_content" returned an invalid result: messages[0].content is a string ("hi"), not a content block. It returned [{"role":"user","content":"hi"}]'],
    ['prompts/get', { name: 'bad_role' }, 'prompt', 'prompt "bad_role" returned an invalid result: messages[0] has role "system" (expected "user" or "assistant"). It returned [{"role":"system","content":{"type":"text","text":"x"}}]'],
  ])('%s %j: -32603 for the client, a log line for the author', async (method, params, kind, line) => {
    const { server, logged } = make();
    const c = await connected(server);
    await c.request(method, params).catch(() => undefined);
    expect(lastResponse(c)).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32603, message: `Internal error: the ${kind} handler returned an invalid result` } });
    expect(logged).toEqual([`mcpkit: ${line}; the client got -32603.`]);
  });
});

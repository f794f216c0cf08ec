import { describe, expect, it } from 'vitest';
import { McpServer } from '../../../src/server/server.js';
import type { TestClient, TestClientError } from '../../../src/testing/index.js';
import { connected, lastResponse } from '../support.js';

function make(pageSize?: number): McpServer {
  const s = new McpServer({ name: 'pages', version: '1.0.0', ...(pageSize !== undefined && { results: { pageSize } }) });
  for (let i = 0; i < 5; i++) {
    s.tool(`tool${i}`, {}, () => 'ok');
    s.resource(`mem://r${i}`, {}, () => 'ok');
    s.resourceTemplate(`mem://t${i}/{x}`, {}, () => 'ok');
    s.prompt(`prompt${i}`, {}, () => 'ok');
  }
  return s;
}

type Lister = (c: TestClient, cursor?: string) => Promise<Record<string, unknown>>;
const LISTS: [string, Lister, string, string][] = [
  ['tools/list', (c, cursor) => c.listTools(cursor), 'tools', 'name'],
  ['resources/list', (c, cursor) => c.listResources(cursor), 'resources', 'uri'],
  ['resources/templates/list', (c, cursor) => c.listResourceTemplates(cursor), 'resourceTemplates', 'uriTemplate'],
  ['prompts/list', (c, cursor) => c.listPrompts(cursor), 'prompts', 'name'],
];

async function walk(c: TestClient, list: Lister, key: string, field: string): Promise<{ pages: unknown[][]; cursors: string[] }> {
  const pages: unknown[][] = [];
  const cursors: string[] = [];
  let cursor: string | undefined;
  do {
    const result = await list(c, cursor);
    pages.push((result[key] as Record<string, unknown>[]).map((item) => item[field]));
    cursor = result['nextCursor'] as string | undefined;
    if (cursor !== undefined) cursors.push(cursor);
  } while (cursor !== undefined);
  return { pages, cursors };
}

describe('pagination', () => {
  for (const [method, list, key, field] of LISTS) {
    it(`${method} pages with opaque cursors by pageSize`, async () => {
      const c = await connected(make(2));
      const { pages, cursors } = await walk(c, list, key, field);
      expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
      expect(new Set(pages.flat()).size).toBe(5);
      for (const cursor of cursors) expect(cursor).not.toMatch(/^\d+$/);
    });
  }

  it('without pageSize every list is one page with no nextCursor', async () => {
    const c = await connected(make());
    const result = await c.listTools();
    expect(result['tools']).toHaveLength(5);
    expect('nextCursor' in result).toBe(false);
  });

  it('an invalid cursor is -32602', async () => {
    const c = await connected(make(2));
    for (const cursor of ['garbage!', 'b206OTk5', '']) {
      const error = (await c.listPrompts(cursor).catch((e: unknown) => e)) as TestClientError;
      expect(error.code).toBe(-32602);
    }
    expect(lastResponse(c)).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/^Invalid cursor/) } });
  });
});

// Once the tools are built, nothing they keep holds the parsed document: the GC can free it (GitHub's is ~11 MB of heap).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { McpServer } from '../../src/index.js';
import { addOpenApiTools, loadOpenApiDocument, openApiProvider } from '../../src/openapi.js';
import { petstore } from './petstore.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function collected(ref: WeakRef<object>): Promise<boolean> {
  for (let i = 0; i < 10 && ref.deref() !== undefined; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    gc();
  }
  return ref.deref() === undefined;
}

describe('the parsed document after the tools are built', () => {
  for (const via of ['addOpenApiTools', 'openApiProvider'] as const) {
    it(`is not kept by the tools (${via})`, async () => {
      const server = new McpServer({ name: 'pets', version: '1' });
      const build = async (): Promise<WeakRef<object>> => {
        const doc = await loadOpenApiDocument(JSON.stringify(petstore('3.1')));
        const ref = new WeakRef(doc.root);
        if (via === 'addOpenApiTools') await addOpenApiTools(server, doc, { baseUrl: 'http://127.0.0.1:9' });
        else server.provide(await openApiProvider(doc, { baseUrl: 'http://127.0.0.1:9' }));
        return ref;
      };
      const ref = await build();
      expect(await collected(ref)).toBe(true);
      expect(server.tools.list().length + (via === 'openApiProvider' ? 1 : 0)).toBeGreaterThan(0);
    });
  }
});

/**
 * The mount naming rule, property-tested: URIs and templates round-trip,
 * template variables stay intact, identical URIs in two children stay
 * distinct, and a URI or name is routed to the one mount that listed it, even
 * when namespaces contain `_` or prefix one another.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { namingOf, NAMESPACE, prefixName, prefixUri, stripName, stripUri } from '../../src/server/mount/namespace.js';
import { McpServer } from '../../src/index.js';
import { harness } from '../support/wire.js';

type Json = Record<string, unknown>;
const namespace = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_.-]{0,12}$/);
const uri = fc.oneof(fc.webUrl(), fc.string({ maxLength: 40 }).map((s) => `file:///${s}`), fc.string({ maxLength: 40 }));

describe('mount naming', () => {
  it('a namespaced URI strips back to the child’s, and another mount never claims it', () => {
    fc.assert(
      fc.property(namespace, namespace, uri, (a, b, u) => {
        const na = namingOf(a);
        const nb = namingOf(b);
        expect(stripUri(na, prefixUri(na, u))).toBe(u);
        if (na.uriPrefix !== nb.uriPrefix) expect(stripUri(nb, prefixUri(na, u))).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });

  it('identical URIs of two mounts stay distinct; a URI prefix is a valid scheme start', () => {
    fc.assert(
      fc.property(namespace, namespace, uri, (a, b, u) => {
        fc.pre(namingOf(a).uriPrefix !== namingOf(b).uriPrefix);
        expect(prefixUri(namingOf(a), u)).not.toBe(prefixUri(namingOf(b), u));
        expect(NAMESPACE.test(a)).toBe(true);
        expect(/^[A-Za-z][A-Za-z0-9+.-]*\+$/.test(namingOf(a).uriPrefix)).toBe(true);
      }),
    );
  });

  it('keeps template variables as they are', () => {
    const variable = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);
    fc.assert(
      fc.property(namespace, fc.array(variable, { minLength: 1, maxLength: 4 }), fc.constantFrom('', '+', '#', '/', '?'), (ns, vars, op) => {
        const template = `note://x/{${op}${vars.join(',')}}`;
        const shown = prefixUri(namingOf(ns), template);
        expect(shown.endsWith(template)).toBe(true);
        expect(shown.match(/\{[^}]*\}/g)).toEqual(template.match(/\{[^}]*\}/g));
      }),
    );
  });

  it('names round-trip with any separator', () => {
    fc.assert(
      fc.property(namespace, fc.stringMatching(/^[A-Za-z0-9_.-]{1,3}$/), fc.stringMatching(/^[A-Za-z0-9_.-]{1,20}$/), (ns, sep, name) => {
        const n = namingOf(ns, sep);
        expect(stripName(n, prefixName(n, name))).toBe(name);
      }),
    );
  });

  it('routes every listed name and URI to the mount that listed it, with namespaces that hold `_` or prefix one another', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.constantFrom('a', 'a_b', 'ab', 'a.b', 'b', 'b_a', 'A'), { minLength: 2, maxLength: 5 }),
        fc.array(fc.constantFrom('x', 'b_x', 'x_y', 'y'), { minLength: 1, maxLength: 3 }),
        async (namespaces, tools) => {
          const parent = new McpServer({ name: 'p', version: '1', logger: { error: vi.fn(), warn: vi.fn() } });
          const mounted: string[] = [];
          for (const ns of namespaces) {
            const child = new McpServer({ name: ns, version: '1', logger: { error: vi.fn(), warn: vi.fn() } });
            for (const t of new Set(tools)) child.tool(t, {}, () => `${ns}/${t}`);
            child.resource('mem://same', { name: 'same' }, () => ns);
            try {
              parent.mount(child, { namespace: ns });
              mounted.push(ns);
            } catch (error) {
              // Refused at mount time: a name (or URI prefix) an earlier mount already serves.
              expect(String(error)).toMatch(/already served by|same resource URI prefix/);
            }
          }
          const h = harness(parent);
          await h.initialize();
          const listed = ((await h.request('tools/list'))['result'] as Json)['tools'] as Json[];
          for (const tool of listed) {
            const called = (await h.request('tools/call', { name: tool['name'], arguments: {} }))['result'] as Json;
            const [ns, t] = String(((called['content'] as Json[])[0] as Json)['text']).split('/');
            expect(`${ns}_${t}`).toBe(tool['name']);
          }
          for (const ns of mounted) {
            const read = (await h.request('resources/read', { uri: `${ns.replaceAll('_', '-')}+mem://same` }))['result'] as Json;
            expect(((read['contents'] as Json[])[0] as Json)['text']).toBe(ns);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

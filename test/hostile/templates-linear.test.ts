/**
 * Property 5 (no request blocks the event loop): URI-template matching does
 * work linear in the URI length, counted in VM steps (no timing), and picks
 * the same reading as a backtracking regular expression built from the same
 * pattern (the matcher it replaced), on random templates and URIs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planMatch, type PatternNode } from '../../src/registries/uri-template-plan.js';
import { parse } from '../../src/registries/uri-template-syntax.js';
import { compileProgram, runProgram } from '../../src/registries/uri-template-vm.js';
import { matchCounting, UriTemplate } from '../../src/registries/uri-template.js';

/** The reference: the pattern as a JavaScript (backtracking) regular expression, as mcpkit matched before. */
function referenceRegExp(nodes: readonly PatternNode[]): RegExp {
  const text = (s: string): string => s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  const cls = (chars: string): string => [...chars].map((c) => c.replace(/[\\\]^-]/, '\\$&')).join('');
  let group = 0;
  const source = (seq: readonly PatternNode[]): string =>
    seq
      .map((node) => {
        switch (node.kind) {
          case 'literal':
            return node.options.length === 1 ? text(node.options[0]!) : `(?:${node.options.map(text).join('|')})`;
          case 'run':
            return `[^${cls(node.exclude)}]${node.min === 1 ? '+' : '*'}`;
          case 'optional':
            return `(?:${source(node.body)})?`;
          case 'capture': {
            group += 1;
            const at = group;
            // The possessive idiom: a lookahead's match is never given back.
            return node.atomic ? `(?=(${source(node.body)}))\\${at}` : `(${source(node.body)})`;
          }
        }
      })
      .join('');
  return new RegExp(`^${source(nodes)}$`);
}

function rawCaptures(template: string, uri: string): { vm: string[] | undefined; reference: string[] | undefined } {
  const nodes = planMatch(parse(template));
  const slots = runProgram(compileProgram(nodes), uri);
  const vm = slots && Array.from({ length: slots.length / 2 }, (_, i) => (slots[2 * i]! < 0 ? '' : uri.slice(slots[2 * i], slots[2 * i + 1])));
  const m = referenceRegExp(nodes).exec(uri);
  const reference = m ? m.slice(1).map((g) => g ?? '') : undefined;
  return { vm, reference };
}

function steps(template: UriTemplate, uri: string): number {
  const work = { steps: 0 };
  matchCounting(template, uri, work);
  return work.steps;
}

const programSize = (template: string): number => compileProgram(planMatch(parse(template))).instructions.length;

// Random templates: literals and expressions of every operator, with explode and prefix modifiers.
const literalText = fc.string({ unit: fc.constantFrom(...'ab-./:,;=?&#@'), minLength: 1, maxLength: 3 });
const expression = fc
  .record({
    op: fc.constantFrom('', '+', '#', '.', '/', ';', '?', '&'),
    vars: fc.array(fc.record({ name: fc.constantFrom('a', 'b', 'c', 'd'), mod: fc.constantFrom('', '', '*', ':2') }), { minLength: 1, maxLength: 3 }),
  })
  .map(({ op, vars }) => `{${op}${vars.map((v) => v.name + v.mod).join(',')}}`);
const template = fc
  .array(fc.oneof(literalText, expression, expression), { minLength: 1, maxLength: 5 })
  .map((items) => `x:${items.join('')}`);
const uriBody = fc.string({ unit: fc.constantFrom(...'ab-./:,;=?&#@%2F'), maxLength: 14 });

describe('URI-template matching agrees with a backtracking reference', () => {
  it('on random templates and random URIs (property)', () => {
    fc.assert(
      fc.property(template, uriBody, (t, body) => {
        const { vm, reference } = rawCaptures(t, `x:${body}`);
        expect(vm, `${t}  x:${body}`).toEqual(reference);
      }),
      { numRuns: 4000 },
    );
  });

  it('on random templates and their own expansions (property)', () => {
    const value = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'ab-./,;=?&'), maxLength: 4 }),
      fc.array(fc.string({ unit: fc.constantFrom(...'ab.,'), maxLength: 3 }), { maxLength: 3 }),
    );
    fc.assert(
      fc.property(template, fc.record({ a: value, b: value, c: value, d: value }), (t, vars) => {
        let uri: string;
        try {
          uri = new UriTemplate(t).expand(vars);
        } catch {
          return; // a prefix modifier on a list: not expandable
        }
        const { vm, reference } = rawCaptures(t, uri);
        expect(vm, `${t}  ${uri}`).toEqual(reference);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('URI-template matching is linear in the URI length', () => {
  // The templates and the shapes that made the regular expression quadratic.
  const adversarial: [string, (n: number) => string][] = [
    ['date://{year}-{month}-{day}', (n) => `date://${'1-'.repeat(n / 2)}/`],
    ['db://{schema}.{table}', (n) => `db://${'a.'.repeat(n / 2)}/`],
    ['x://{a}{b}{c}', (n) => `x://${'a'.repeat(n)}/`],
    // (Ending with the template's last literal, so the up-front suffix check does not end the run at once.)
    ['docs://{+section}/{+page}.md', (n) => `docs://${'a/'.repeat(n / 2)}x.md`],
    ['docs://{+section}/{+page}.md', (n) => `docs://${'a/'.repeat(n / 2)}?.md`],
    ['x://{+a}/{+b}/{+c}.json', (n) => `x://${'a/'.repeat(n / 2)}!.json`],
    ['x://{a}-{b}-{c}-{d}', (n) => `x://${'a-'.repeat(n / 2)}/`],
    ['x://{.a}{.b}{.c}{.d}', (n) => `x://${'.a'.repeat(n / 2)}/`],
    ['x://{?a,b,c}{&d*}', (n) => `x://?${'a=1&'.repeat(n / 4)}#`],
    ['x://{#a}/{#b}/{c}', (n) => `x://${'#/'.repeat(n / 2)}?`],
    ['x://{a}{b}{c}{d}{e}{f}', (n) => `x://${'a'.repeat(n)}?`],
  ];

  it.each(adversarial)('%s: doubling the URI at most doubles the work', (source, make) => {
    const t = new UriTemplate(source);
    const counts = [2_000, 4_000, 8_000, 16_000].map((n) => steps(t, make(n)));
    for (let i = 1; i < counts.length; i++) expect(counts[i]! / counts[i - 1]!, `${source} ${counts.join(' ')}`).toBeLessThan(2.1);
    // And the bound the VM guarantees: each instruction at most twice per character.
    expect(counts[3]).toBeLessThanOrEqual(2 * programSize(source) * (16_000 + 8));
  });

  it('stays within 2 × program size steps per character on random templates and URIs (property)', () => {
    const chunk = fc.string({ unit: fc.constantFrom(...'ab-./:,;=?&#@'), minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(template, chunk, fc.integer({ min: 50, max: 400 }), (source, piece, times) => {
        const uri = `x:${piece.repeat(times)}`;
        const t = new UriTemplate(source);
        expect(steps(t, uri)).toBeLessThanOrEqual(2 * programSize(source) * (uri.length + 1));
      }),
      { numRuns: 300 },
    );
  });

  it('still reads long URIs that do match', () => {
    const path = 'dir/'.repeat(5000) + 'file.txt';
    expect(new UriTemplate('file:///{+path}').match(`file:///${path}`)).toEqual({ path });
    const day = new UriTemplate('date://{year}-{month}-{day}').match(`date://${'9'.repeat(10_000)}-11-30`);
    expect(day).toEqual({ year: '9'.repeat(10_000), month: '11', day: '30' });
    expect(new UriTemplate('docs://{+section}/{+page}.md').match(`docs://${'a/'.repeat(5000)}b.md`)).toEqual({
      section: 'a/'.repeat(4999) + 'a',
      page: 'b',
    });
  });
});

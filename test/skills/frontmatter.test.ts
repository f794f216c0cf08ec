/**
 * The SKILL.md front matter parser: for everything it accepts it must read what a full
 * YAML parser reads (the `yaml` package, which the conformance suite uses to compare
 * entries with files), and everything outside its subset is refused with a line number.
 */
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrontmatterError, parseFrontmatter, parseSkillFile } from '../../src/index.js';

// `yaml` is the conformance suite's own dependency: resolved from there, as scripts/conformance/results.mjs does.
const requireFromSuite = createRequire(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json'));
const YAML = requireFromSuite('yaml') as { parse(text: string): unknown };

const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/);
const key = fc.oneof(word, fc.stringMatching(/^[A-Za-z][A-Za-z0-9_.]{0,8}\/[a-z]{1,6}$/));
// Plain text that stays text (no indicator first, no ": " or " #", not a number or a keyword).
const plainText = fc.stringMatching(/^[A-Za-z(][A-Za-z0-9 ,.()'/-]{0,40}[A-Za-z0-9.)]$/).filter((t) => !/^(?:true|false|null|yes|no|on|off|y|n)$/i.test(t));
const anyText = fc.string({ unit: fc.constantFrom(...'ab c:#\'"\\-[]{}&*!|>%@`\té😀\n'.split('')), maxLength: 20 });

type Node = { kind: 'scalar'; yaml: string } | { kind: 'map'; entries: [string, Node][] } | { kind: 'list'; items: string[] };

const scalar: fc.Arbitrary<string> = fc.oneof(
  plainText,
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map((n) => String(n)).filter((t) => /^-?\d+(\.\d+)?$/.test(t)),
  fc.constantFrom('true', 'false', 'null', '~', 'True', 'NULL', '0x1F', '0o17', '1.5e3', '.5'),
  anyText.map((t) => JSON.stringify(t)),
  anyText.filter((t) => !t.includes('\n')).map((t) => `'${t.replace(/'/g, "''")}'`),
  fc.array(fc.oneof(word, fc.integer().map(String), anyText.filter((t) => !t.includes('\n')).map((t) => JSON.stringify(t))), { maxLength: 4 }).map((items) => `[${items.join(', ')}]`),
  plainText.map((t) => `${t} # a comment`),
  anyText.filter((t) => !t.includes('\n')).map((t) => `'${t.replace(/'/g, "''")}' # a comment`),
  anyText.map((t) => `${JSON.stringify(t)} # a comment`),
);

const node: fc.Arbitrary<Node> = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar.map((yaml): Node => ({ kind: 'scalar', yaml })),
    fc.uniqueArray(fc.tuple(key, tie('node')), { selector: ([k]) => k, minLength: 1, maxLength: 4 }).map((entries): Node => ({ kind: 'map', entries })),
    fc.array(scalar, { minLength: 1, maxLength: 4 }).map((items): Node => ({ kind: 'list', items })),
  ),
})).node;

function render(entries: [string, Node][], indent: string): string {
  return entries
    .map(([k, value]) => {
      if (value.kind === 'scalar') return `${indent}${k}: ${value.yaml}\n`;
      if (value.kind === 'list') return `${indent}${k}:\n${value.items.map((item) => `${indent}  - ${item}\n`).join('')}`;
      return `${indent}${k}:\n${render(value.entries, `${indent}  `)}`;
    })
    .join('');
}

const blockScalar = fc.tuple(
  fc.constantFrom('|', '>', '|-', '>-', '|+', '>+'),
  // The first line sets the indentation (YAML refuses a later line indented less).
  fc.tuple(plainText, fc.array(fc.oneof(plainText, fc.constant(''), plainText.map((t) => `  ${t}`)), { maxLength: 5 })).map(([first, rest]) => [first, ...rest]),
  fc.constantFrom('', '\n', '\n\n'),
);

describe('parseFrontmatter', () => {
  it('reads what the yaml package reads, for mappings, lists, quoted and plain scalars', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(key, node), { selector: ([k]) => k, minLength: 1, maxLength: 6 }), (entries) => {
        const text = render(entries, '');
        expect(parseFrontmatter(text)).toEqual(YAML.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('reads block scalars (literal and folded, every chomping) as the yaml package does', () => {
    fc.assert(
      fc.property(blockScalar, ([header, lines, after]) => {
        const body = lines.map((l) => (l === '' ? '' : `  ${l}`)).join('\n');
        const text = `description: ${header}\n${body}\n${after}name: x\n`;
        expect(parseFrontmatter(text)).toEqual(YAML.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('reads plain values that go on over indented lines as the yaml package does', () => {
    const text = 'description: Extract text and tables from PDF files,\n  fill forms and merge documents.\n\n  Use it for PDFs.\nname: pdf\n';
    expect(parseFrontmatter(text)).toEqual(YAML.parse(text));
  });

  it.each([
    ['a tab indent', 'metadata:\n\tauthor: x', 2],
    ['an anchor', 'name: &a x', 1],
    ['an alias', 'name: *a', 1],
    ['a tag', 'name: !!str x', 1],
    ['a flow mapping', 'metadata: { a: b }', 1],
    ['a duplicate key', 'name: a\nname: b', 2],
    ['": " inside a plain value', 'description: Use when: asked', 1],
    ['an unclosed quote', 'description: "open', 1],
    ['an unclosed flow list', 'tools: [a, b', 1],
    ['a bad escape', 'name: "\\q"', 1],
    ['stray indentation', 'name: a\n    b: c', 2],
    ['a list of mappings', 'items:\n  - a: b', 2],
    ['a key that is not text', 'true: x', 1],
    ['.inf, which JSON cannot hold', 'n: .inf', 1],
  ])('refuses %s, naming the line', (_what, text, line) => {
    let error: unknown;
    try {
      parseFrontmatter(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FrontmatterError);
    expect((error as FrontmatterError).line).toBe(line);
  });

  it('never throws anything but FrontmatterError on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'ab: -#\'"|>[]{},&*!\n\t \\'.split('')), maxLength: 80 }), (text) => {
        try {
          parseFrontmatter(text);
        } catch (error) {
          expect(error).toBeInstanceOf(FrontmatterError);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('parseSkillFile', () => {
  it('splits front matter and body, with a BOM and CRLF line ends', () => {
    expect(parseSkillFile('\uFEFF---\r\nname: a\r\ndescription: b\r\n---\r\n# A\r\n')).toEqual({ frontmatter: { name: 'a', description: 'b' }, body: '# A\r\n' });
  });

  it.each([
    ['no front matter', '# Just markdown\n', /must begin with YAML front matter/],
    ['no closing fence', '---\nname: a\n', /no closing "---"/],
    ['front matter longer than 64 KiB', `---\ndescription: ${'a'.repeat(70_000)}\n---\n`, /longer than 65536/],
  ])('refuses %s', (_what, text, message) => {
    expect(() => parseSkillFile(text)).toThrow(message);
  });

  it('an own "__proto__" key stays data', () => {
    const parsed = parseFrontmatter('"__proto__": x\nname: a\n');
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['__proto__', 'name']);
  });
});

/* eslint-disable max-lines -- most of this file is the RFC 6570 example tables, typed in verbatim */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UriTemplate, UriTemplateError, isUriTemplate, type UriVariableValue } from './uri-template.js';

type Vars = Record<string, UriVariableValue | undefined>;

// RFC 6570 section 1.2: the variables used by the level 1-4 examples.
const section12: Vars = {
  var: 'value',
  hello: 'Hello World!',
  empty: '',
  path: '/foo/bar',
  list: ['red', 'green', 'blue'],
  keys: { semi: ';', dot: '.', comma: ',' },
  x: '1024',
  y: '768',
};

const section12Examples: [string, string][] = [
  // Level 1
  ['{var}', 'value'],
  ['{hello}', 'Hello%20World%21'],
  // Level 2
  ['{+var}', 'value'],
  ['{+hello}', 'Hello%20World!'],
  ['{+path}/here', '/foo/bar/here'],
  ['here?ref={+path}', 'here?ref=/foo/bar'],
  ['X{#var}', 'X#value'],
  ['X{#hello}', 'X#Hello%20World!'],
  // Level 3
  ['map?{x,y}', 'map?1024,768'],
  ['{x,hello,y}', '1024,Hello%20World%21,768'],
  ['{+x,hello,y}', '1024,Hello%20World!,768'],
  ['{+path,x}/here', '/foo/bar,1024/here'],
  ['{#x,hello,y}', '#1024,Hello%20World!,768'],
  ['{#path,x}/here', '#/foo/bar,1024/here'],
  ['X{.var}', 'X.value'],
  ['X{.x,y}', 'X.1024.768'],
  ['{/var}', '/value'],
  ['{/var,x}/here', '/value/1024/here'],
  ['{;x,y}', ';x=1024;y=768'],
  ['{;x,y,empty}', ';x=1024;y=768;empty'],
  ['{?x,y}', '?x=1024&y=768'],
  ['{?x,y,empty}', '?x=1024&y=768&empty='],
  ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
  ['{&x,y,empty}', '&x=1024&y=768&empty='],
  // Level 4
  ['{var:3}', 'val'],
  ['{var:30}', 'value'],
  ['{list}', 'red,green,blue'],
  ['{list*}', 'red,green,blue'],
  ['{keys}', 'semi,%3B,dot,.,comma,%2C'],
  ['{keys*}', 'semi=%3B,dot=.,comma=%2C'],
  ['{+path:6}/here', '/foo/b/here'],
  ['{+list}', 'red,green,blue'],
  ['{+list*}', 'red,green,blue'],
  ['{+keys}', 'semi,;,dot,.,comma,,'],
  ['{+keys*}', 'semi=;,dot=.,comma=,'],
  ['{#path:6}/here', '#/foo/b/here'],
  ['{#list}', '#red,green,blue'],
  ['{#list*}', '#red,green,blue'],
  ['{#keys}', '#semi,;,dot,.,comma,,'],
  ['{#keys*}', '#semi=;,dot=.,comma=,'],
  ['X{.var:3}', 'X.val'],
  ['X{.list}', 'X.red,green,blue'],
  ['X{.list*}', 'X.red.green.blue'],
  ['X{.keys}', 'X.semi,%3B,dot,.,comma,%2C'],
  ['X{.keys*}', 'X.semi=%3B.dot=..comma=%2C'],
  ['{/var:1,var}', '/v/value'],
  ['{/list}', '/red,green,blue'],
  ['{/list*}', '/red/green/blue'],
  ['{/list*,path:4}', '/red/green/blue/%2Ffoo'],
  ['{/keys}', '/semi,%3B,dot,.,comma,%2C'],
  ['{/keys*}', '/semi=%3B/dot=./comma=%2C'],
  ['{;hello:5}', ';hello=Hello'],
  ['{;list}', ';list=red,green,blue'],
  ['{;list*}', ';list=red;list=green;list=blue'],
  ['{;keys}', ';keys=semi,%3B,dot,.,comma,%2C'],
  ['{;keys*}', ';semi=%3B;dot=.;comma=%2C'],
  ['{?var:3}', '?var=val'],
  ['{?list}', '?list=red,green,blue'],
  ['{?list*}', '?list=red&list=green&list=blue'],
  ['{?keys}', '?keys=semi,%3B,dot,.,comma,%2C'],
  ['{?keys*}', '?semi=%3B&dot=.&comma=%2C'],
  ['{&var:3}', '&var=val'],
  ['{&list}', '&list=red,green,blue'],
  ['{&list*}', '&list=red&list=green&list=blue'],
  ['{&keys}', '&keys=semi,%3B,dot,.,comma,%2C'],
  ['{&keys*}', '&semi=%3B&dot=.&comma=%2C'],
];

// RFC 6570 section 3.2: the variable set for the per-operator examples.
const section32: Vars = {
  count: ['one', 'two', 'three'],
  dom: ['example', 'com'],
  dub: 'me/too',
  hello: 'Hello World!',
  half: '50%',
  var: 'value',
  who: 'fred',
  base: 'http://example.com/home/',
  path: '/foo/bar',
  list: ['red', 'green', 'blue'],
  keys: { semi: ';', dot: '.', comma: ',' },
  v: '6',
  x: '1024',
  y: '768',
  empty: '',
  empty_keys: {},
  undef: undefined,
};

const section32Examples: Record<string, [string, string][]> = {
  '3.2.1 variable expansion': [
    ['{count}', 'one,two,three'],
    ['{count*}', 'one,two,three'],
    ['{/count}', '/one,two,three'],
    ['{/count*}', '/one/two/three'],
    ['{;count}', ';count=one,two,three'],
    ['{;count*}', ';count=one;count=two;count=three'],
    ['{?count}', '?count=one,two,three'],
    ['{?count*}', '?count=one&count=two&count=three'],
    ['{&count*}', '&count=one&count=two&count=three'],
  ],
  '3.2.2 simple string expansion': [
    ['{var}', 'value'],
    ['{hello}', 'Hello%20World%21'],
    ['{half}', '50%25'],
    ['O{empty}X', 'OX'],
    ['O{undef}X', 'OX'],
    ['{x,y}', '1024,768'],
    ['{x,hello,y}', '1024,Hello%20World%21,768'],
    ['?{x,empty}', '?1024,'],
    ['?{x,undef}', '?1024'],
    ['?{undef,y}', '?768'],
    ['{var:3}', 'val'],
    ['{var:30}', 'value'],
    ['{list}', 'red,green,blue'],
    ['{list*}', 'red,green,blue'],
    ['{keys}', 'semi,%3B,dot,.,comma,%2C'],
    ['{keys*}', 'semi=%3B,dot=.,comma=%2C'],
  ],
  '3.2.3 reserved expansion': [
    ['{+var}', 'value'],
    ['{+hello}', 'Hello%20World!'],
    ['{+half}', '50%25'],
    ['{base}index', 'http%3A%2F%2Fexample.com%2Fhome%2Findex'],
    ['{+base}index', 'http://example.com/home/index'],
    ['O{+empty}X', 'OX'],
    ['O{+undef}X', 'OX'],
    ['{+path}/here', '/foo/bar/here'],
    ['here?ref={+path}', 'here?ref=/foo/bar'],
    ['up{+path}{var}/here', 'up/foo/barvalue/here'],
    ['{+x,hello,y}', '1024,Hello%20World!,768'],
    ['{+path,x}/here', '/foo/bar,1024/here'],
    ['{+path:6}/here', '/foo/b/here'],
    ['{+list}', 'red,green,blue'],
    ['{+list*}', 'red,green,blue'],
    ['{+keys}', 'semi,;,dot,.,comma,,'],
    ['{+keys*}', 'semi=;,dot=.,comma=,'],
  ],
  '3.2.4 fragment expansion': [
    ['{#var}', '#value'],
    ['{#hello}', '#Hello%20World!'],
    ['{#half}', '#50%25'],
    ['foo{#empty}', 'foo#'],
    ['foo{#undef}', 'foo'],
    ['{#x,hello,y}', '#1024,Hello%20World!,768'],
    ['{#path,x}/here', '#/foo/bar,1024/here'],
    ['{#path:6}/here', '#/foo/b/here'],
    ['{#list}', '#red,green,blue'],
    ['{#list*}', '#red,green,blue'],
    ['{#keys}', '#semi,;,dot,.,comma,,'],
    ['{#keys*}', '#semi=;,dot=.,comma=,'],
  ],
  '3.2.5 label expansion': [
    ['{.who}', '.fred'],
    ['{.who,who}', '.fred.fred'],
    ['{.half,who}', '.50%25.fred'],
    ['www{.dom*}', 'www.example.com'],
    ['X{.var}', 'X.value'],
    ['X{.empty}', 'X.'],
    ['X{.undef}', 'X'],
    ['X{.var:3}', 'X.val'],
    ['X{.list}', 'X.red,green,blue'],
    ['X{.list*}', 'X.red.green.blue'],
    ['X{.keys}', 'X.semi,%3B,dot,.,comma,%2C'],
    ['X{.keys*}', 'X.semi=%3B.dot=..comma=%2C'],
    ['X{.empty_keys}', 'X'],
    ['X{.empty_keys*}', 'X'],
  ],
  '3.2.6 path segment expansion': [
    ['{/who}', '/fred'],
    ['{/who,who}', '/fred/fred'],
    ['{/half,who}', '/50%25/fred'],
    ['{/who,dub}', '/fred/me%2Ftoo'],
    ['{/var}', '/value'],
    ['{/var,empty}', '/value/'],
    ['{/var,undef}', '/value'],
    ['{/var,x}/here', '/value/1024/here'],
    ['{/var:1,var}', '/v/value'],
    ['{/list}', '/red,green,blue'],
    ['{/list*}', '/red/green/blue'],
    ['{/list*,path:4}', '/red/green/blue/%2Ffoo'],
    ['{/keys}', '/semi,%3B,dot,.,comma,%2C'],
    ['{/keys*}', '/semi=%3B/dot=./comma=%2C'],
  ],
  '3.2.7 path-style parameter expansion': [
    ['{;who}', ';who=fred'],
    ['{;half}', ';half=50%25'],
    ['{;empty}', ';empty'],
    ['{;v,empty,who}', ';v=6;empty;who=fred'],
    ['{;v,bar,who}', ';v=6;who=fred'],
    ['{;x,y}', ';x=1024;y=768'],
    ['{;x,y,empty}', ';x=1024;y=768;empty'],
    ['{;x,y,undef}', ';x=1024;y=768'],
    ['{;hello:5}', ';hello=Hello'],
    ['{;list}', ';list=red,green,blue'],
    ['{;list*}', ';list=red;list=green;list=blue'],
    ['{;keys}', ';keys=semi,%3B,dot,.,comma,%2C'],
    ['{;keys*}', ';semi=%3B;dot=.;comma=%2C'],
  ],
  '3.2.8 form-style query expansion': [
    ['{?who}', '?who=fred'],
    ['{?half}', '?half=50%25'],
    ['{?x,y}', '?x=1024&y=768'],
    ['{?x,y,empty}', '?x=1024&y=768&empty='],
    ['{?x,y,undef}', '?x=1024&y=768'],
    ['{?var:3}', '?var=val'],
    ['{?list}', '?list=red,green,blue'],
    ['{?list*}', '?list=red&list=green&list=blue'],
    ['{?keys}', '?keys=semi,%3B,dot,.,comma,%2C'],
    ['{?keys*}', '?semi=%3B&dot=.&comma=%2C'],
  ],
  '3.2.9 form-style query continuation': [
    ['{&who}', '&who=fred'],
    ['{&half}', '&half=50%25'],
    ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
    ['{&x,y,empty}', '&x=1024&y=768&empty='],
    ['{&var:3}', '&var=val'],
    ['{&list}', '&list=red,green,blue'],
    ['{&list*}', '&list=red&list=green&list=blue'],
    ['{&keys}', '&keys=semi,%3B,dot,.,comma,%2C'],
    ['{&keys*}', '&semi=%3B&dot=.&comma=%2C'],
  ],
};

describe('UriTemplate.expand: RFC 6570 section 1.2 examples', () => {
  it.each(section12Examples)('%s -> %s', (template, expected) => {
    expect(new UriTemplate(template).expand(section12)).toBe(expected);
  });
});

describe.each(Object.entries(section32Examples))('UriTemplate.expand: RFC 6570 %s', (_section, examples) => {
  it.each(examples)('%s -> %s', (template, expected) => {
    expect(new UriTemplate(template).expand(section32)).toBe(expected);
  });
});

describe('UriTemplate.expand: encoding details', () => {
  it('keeps pct-triplets under + and # but encodes a lone %', () => {
    const t = new UriTemplate('{+a}{#b}');
    expect(t.expand({ a: '%20x%zz', b: '%41%' })).toBe('%20x%25zz#%41%25');
  });
  it('encodes non-ASCII as UTF-8 and counts prefixes in code points', () => {
    expect(new UriTemplate('{a}/{a:2}').expand({ a: 'ü€😀x' })).toBe('%C3%BC%E2%82%AC%F0%9F%98%80x/%C3%BC%E2%82%AC');
    expect(new UriTemplate('{a}').expand({ a: '\uD800' })).toBe('%EF%BF%BD'); // lone surrogate
  });
  it('encodes literal characters not allowed in a URI', () => {
    expect(new UriTemplate('a b/{x}').expand({ x: '1' })).toBe('a%20b/1');
  });
  it('ignores inherited properties of the variables object', () => {
    expect(new UriTemplate('{constructor}{toString}').expand({})).toBe('');
  });
  it('rejects a prefix modifier on a composite value', () => {
    expect(() => new UriTemplate('{list:2}').expand({ list: ['a'] })).toThrow(UriTemplateError);
  });
});

describe('UriTemplate parsing', () => {
  it('lists variable names in order, de-duplicated', () => {
    const t = new UriTemplate('{/who,who}{?x,y}{&x}{#frag:3}{keys*}');
    expect(t.variableNames).toEqual(['who', 'x', 'y', 'frag', 'keys']);
    expect(t.template).toBe('{/who,who}{?x,y}{&x}{#frag:3}{keys*}');
    expect(String(t)).toBe(t.template);
  });
  it('accepts dotted and pct-encoded variable names', () => {
    expect(new UriTemplate('{a.b,c%20d}').variableNames).toEqual(['a.b', 'c%20d']);
  });
  it.each([
    ['x{a', "unclosed '{' at position 1"],
    ['x{a{b}}', "unclosed '{' at position 1"],
    ['x}', "unmatched '}' at position 1"],
    ['{}', 'invalid variable name "" at position 1'],
    ['{=a}', "reserved operator '=' at position 1"],
    ['{|a}', "reserved operator '|' at position 1"],
    ['{!a}', "reserved operator '!' at position 1"],
    ['{a,b-c}', 'invalid variable name "b-c" at position 3'],
    ['{a..b}', 'invalid variable name "a..b" at position 1'],
    ['{.a.}', 'invalid variable name "a." at position 2'],
    ['{a%2}', 'invalid variable name "a%2" at position 1'],
    ['{a:0}', "invalid prefix modifier ':0' (expected 1-9999) at position 2"],
    ['{a:10000}', "invalid prefix modifier ':10000' (expected 1-9999) at position 2"],
    ['{?x,a:}', "invalid prefix modifier ':' (expected 1-9999) at position 5"],
    ['{a:3*}', 'invalid variable name "a:3" at position 1'],
  ])('rejects %s', (template, message) => {
    expect(() => new UriTemplate(template)).toThrow(UriTemplateError);
    expect(() => new UriTemplate(template)).toThrow(message);
  });
  it('throws only UriTemplateError on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (template) => {
        try {
          new UriTemplate(template);
        } catch (error) {
          expect(error).toBeInstanceOf(UriTemplateError);
        }
      }),
    );
  });
});

describe('isUriTemplate', () => {
  it.each([
    ['test://template/{id}/data', true],
    ['{x}', true],
    ['file:///static.txt', false],
    ['{}', false],
    ['a{b', false],
  ])('%s -> %s', (value, expected) => {
    expect(isUriTemplate(value)).toBe(expected);
  });
});

describe('UriTemplate.match', () => {
  it('matches MCP-style resource templates', () => {
    expect(new UriTemplate('test://template/{id}/data').match('test://template/123/data')).toEqual({ id: '123' });
    expect(new UriTemplate('file:///{+path}').match('file:///a/b/c.txt')).toEqual({ path: 'a/b/c.txt' });
    const profile = new UriTemplate('users://{userId}/profile{?fields}');
    expect(profile.match('users://42/profile')).toEqual({ userId: '42' });
    expect(profile.match('users://42/profile?fields=name,email')).toEqual({ userId: '42', fields: 'name,email' });
    expect(profile.match('users://a%20b/profile?fields=')).toEqual({ userId: 'a b', fields: '' });
  });

  it('returns undefined for URIs that are not expansions', () => {
    const t = new UriTemplate('test://template/{id}/data');
    for (const uri of ['test://template/123/other', 'test://template/1/2/data', 'test://template/123/data/x', 'x' + t.template, '']) {
      expect(t.match(uri)).toBeUndefined();
    }
    const profile = new UriTemplate('users://{userId}/profile{?fields}');
    expect(profile.match('users://42/profile?other=1')).toBeUndefined();
    expect(profile.match('users://42/profile?fields=a&fields=b')).toBeUndefined();
    expect(profile.match('users://42/profile#frag')).toBeUndefined();
  });

  it('treats a template without expressions as a literal string', () => {
    const t = new UriTemplate('test://static.txt?a=(b)*');
    expect(t.match('test://static.txt?a=(b)*')).toEqual({});
    expect(t.match('test://staticXtxt?a=(b)*')).toBeUndefined();
    expect(t.match('test://static.txt?a=(b)')).toBeUndefined();
  });

  it('accepts query parameters in any order and subset', () => {
    const t = new UriTemplate('search://items{?q,lang,page}');
    expect(t.match('search://items?page=2&q=cat%20food')).toEqual({ q: 'cat food', page: '2' });
    expect(t.match('search://items?lang=en')).toEqual({ lang: 'en' });
    expect(t.match('search://items?lang=en&lang=fr')).toBeUndefined();
    const cont = new UriTemplate('search://items?fixed=1{&q,lang}');
    expect(cont.match('search://items?fixed=1&lang=en&q=x')).toEqual({ q: 'x', lang: 'en' });
  });

  it('splits exploded lists on the operator separator', () => {
    expect(new UriTemplate('x:{/list*}').match('x:/red/green/blue')).toEqual({ list: ['red', 'green', 'blue'] });
    expect(new UriTemplate('x:{?list*}').match('x:?list=red&list=gr%C3%BCn')).toEqual({ list: ['red', 'grün'] });
    expect(new UriTemplate('x:{;list*}').match('x:;list=a;list=b')).toEqual({ list: ['a', 'b'] });
    expect(new UriTemplate('www{.dom*}').match('www.example.com')).toEqual({ dom: ['example', 'com'] });
    expect(new UriTemplate('{list*}').match('a,b')).toEqual({ list: ['a', 'b'] });
    // A path segment keeps an encoded '/' encoded (see the reserved-characters test below).
    expect(new UriTemplate('{/list*,path:4}').match('/red/green/blue/%2Ffoo')).toEqual({
      list: ['red', 'green', 'blue'],
      path: '%2Ffoo',
    });
  });

  it('reads back the RFC examples that have a single reading', () => {
    const cases: [string, Record<string, string | string[]>][] = [
      ['{/var:1,var}', { var: 'value' }],
      ['{/who,who}', { who: 'fred' }],
      ['{+path}/here', { path: '/foo/bar' }],
      ['here?ref={+path}', { path: '/foo/bar' }],
      ['{+base}index', { base: 'http://example.com/home/' }],
      ['{#path,x}/here', { path: '/foo/bar', x: '1024' }],
      ['{;v,empty,who}', { v: '6', empty: '', who: 'fred' }],
      ['{?x,y,empty}', { x: '1024', y: '768', empty: '' }],
      ['X{.half,who}', { half: '50%', who: 'fred' }],
      ['{/half,who}', { half: '50%', who: 'fred' }],
      ['{x,hello,y}', { x: '1024', hello: 'Hello World%21', y: '768' }], // reserved '!' stays encoded
    ];
    for (const [template, expected] of cases) {
      const t = new UriTemplate(template);
      expect(t.match(t.expand(section32)), template).toEqual(expected);
    }
    // Repeated variables must agree.
    expect(new UriTemplate('{/who,who}').match('/fred/bob')).toBeUndefined();
    expect(new UriTemplate('{/var:1,var}').match('/x/value')).toBeUndefined();
  });

  it('percent-decodes values and leaves malformed escapes alone', () => {
    const t = new UriTemplate('x://{a}/{+b}');
    expect(t.match('x://%E2%82%AC%2F/%2Fp%20q/r')).toEqual({ a: '€%2F', b: '/p q/r' });
    expect(t.match('x://%E2%82/%zz%')).toEqual({ a: '%E2%82', b: '%zz%' });
  });

  it('does not expose Object.prototype through odd variable names', () => {
    const t = new UriTemplate('x://{__proto__}/{constructor}');
    const m = t.match('x://a/b');
    expect(m).toEqual({ ['__proto__']: 'a', constructor: 'b' });
    expect(Object.getPrototypeOf(m)).toBe(Object.prototype);
  });

  it('round-trips lists and mixed operators', () => {
    const cases: [string, Vars][] = [
      ['api://{org}/repos{/repo,branch}{?page,per_page}{#section}', { org: 'a b', repo: 'r', branch: 'main', page: '2', section: 'x/y' }],
      ['api://{org}/repos{/repo,branch}{?page,per_page}{#section}', { org: 'o', per_page: '10' }],
      ['x:{/segments*}{?tags*}', { segments: ['a', 'b c', 'd~e'], tags: ['t1', 't&2', 'u/v'] }],
      ['x:{;p*,q}', { p: ['1', '2'], q: '3' }],
      ['files:///{+dir}/{name}.{ext}', { dir: 'a/b/c', name: 'report', ext: 'pdf' }],
      ['mail:{user}@{domain}', { user: 'me', domain: 'example.com' }],
    ];
    for (const [template, vars] of cases) {
      const t = new UriTemplate(template);
      expect(t.match(t.expand(vars)), `${template} ${t.expand(vars)}`).toEqual(vars);
    }
  });

  // Level 1-3 templates: a scheme, then 1-4 expressions of 1-3 distinct variables joined by a literal.
  const levels1to3 = fc
    .record({
      scheme: fc.constantFrom('test://', 'x:', 'file:///'),
      expressions: fc.array(
        fc.record({ op: fc.constantFrom('', '+', '#', '.', '/', ';', '?', '&'), count: fc.integer({ min: 1, max: 3 }) }),
        { minLength: 1, maxLength: 4 },
      ),
      literal: fc.constantFrom('/', ':', '/v1/', '@'),
    })
    .map(({ scheme, expressions, literal }) => {
      let n = 0;
      const body = expressions.map(({ op, count }) => `{${op}${Array.from({ length: count }, () => `v${n++}`).join(',')}}`);
      return new UriTemplate(scheme + body.join(literal));
    });
  // Values avoid reserved characters and '.', so separators in the template stay unambiguous,
  // and '%', which reserved expansion passes through when it starts a pct-triplet.
  const safeUnit = fc.constantFrom(...'abcXYZ019-_~ "ü€😀');
  const assign = <T,>(t: UriTemplate, values: T[]): Record<string, T> =>
    Object.fromEntries(t.variableNames.map((name, i) => [name, values[i]!]));

  it('round-trips level 1-3 templates over non-empty safe values (property)', () => {
    const values = fc.array(fc.string({ unit: safeUnit, minLength: 1, maxLength: 8 }), { minLength: 12, maxLength: 12 });
    fc.assert(
      fc.property(levels1to3, values, (t, vs) => {
        const vars = assign(t, vs);
        const uri = t.expand(vars);
        expect(t.match(uri), `${t.template} ${uri}`).toEqual(vars);
      }),
      { numRuns: 2000 },
    );
  });

  it('finds a valid reading when values may be empty or undefined (property)', () => {
    // '' and undefined can expand identically next to optional expressions, so compare re-expansions.
    const values = fc.array(fc.option(fc.string({ unit: safeUnit, maxLength: 4 }), { nil: undefined }), {
      minLength: 12,
      maxLength: 12,
    });
    fc.assert(
      fc.property(levels1to3, values, (t, vs) => {
        const uri = t.expand(assign(t, vs));
        const m = t.match(uri);
        expect(m, `${t.template} ${uri}`).toBeDefined();
        expect(t.expand(m ?? {})).toBe(uri);
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws, whatever the input', () => {
    const templates = [
      'test://template/{id}/data',
      'file:///{+path}',
      'users://{userId}/profile{?fields}',
      '{a}{b}{c}',
      '{/list*,path:4}{?q*}{&r}{#f}',
      'x{.a,b}{;c*}',
    ].map((t) => new UriTemplate(t));
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.constantFrom(...templates), (uri, t) => {
        const m = t.match(uri);
        expect(m === undefined || typeof m === 'object').toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('stays fast on 10,000-character URIs (no catastrophic backtracking)', () => {
    const long = 'a/'.repeat(5000);
    const cases: [string, string][] = [
      ['x://{+a}/{+b}/{+c}.json', `x://${long}!`],
      ['x://{a}{b}{c}{d}', `x://${'a'.repeat(10_000)}/`],
      ['x://{a}-{b}-{c}-{d}', `x://${'a-'.repeat(5000)}/`],
      ['x://{+a}{/b*}/{+c}{?q,r}', `x://${long}?q=1&q=2`],
      ['x://{.a}{.b}{.c}{.d}', `x://${'.a'.repeat(5000)}/`],
      ['x://{?a,b,c}{&d*}', `x://?${'a=1&'.repeat(3000)}#`],
      ['x://{#a}/{#b}/{c}', `x://${'#/'.repeat(5000)}?`],
    ];
    const path = 'dir/'.repeat(2500) + 'file.txt';
    expect(new UriTemplate('file:///{+path}').match(`file:///${path}`)).toEqual({ path });
    const list = Array.from({ length: 3000 }, (_, i) => String(i));
    expect(new UriTemplate('x:{?list*}').match(new UriTemplate('x:{?list*}').expand({ list }))).toEqual({ list });
    // Bounded by the test timeout, not a timing assertion: catastrophic backtracking would hang here.
    for (const [template, uri] of cases) {
      const t = new UriTemplate(template);
      expect(t.match(uri), template).toBeUndefined();
      expect(() => t.match(uri.slice(0, -1)), template).not.toThrow();
    }
  });
});

/**
 * RFC 6570 URI Templates (levels 1–4): expansion, plus the reverse — matching a
 * concrete URI against a template, which is how MCP resolves `resources/read`
 * against registered resource templates.
 */

export class UriTemplateError extends Error {
  override name = 'UriTemplateError';
}

export type UriVariableValue = string | readonly string[] | Readonly<Record<string, string>>;

/** How each operator expands (RFC 6570 appendix A table). */
interface Operator {
  readonly char: string;
  readonly first: string;
  readonly sep: string;
  readonly named: boolean;
  readonly ifemp: string;
  /** true: reserved characters and pct-triplets pass through (U+R); false: only unreserved (U). */
  readonly reserved: boolean;
}

const op = (char: string, first: string, sep: string, named: boolean, ifemp: string, reserved: boolean): Operator => ({
  char, first, sep, named, ifemp, reserved,
});
const OPERATORS: ReadonlyMap<string, Operator> = new Map([
  ['+', op('+', '', ',', false, '', true)],
  ['#', op('#', '#', ',', false, '', true)],
  ['.', op('.', '.', '.', false, '', false)],
  ['/', op('/', '/', '/', false, '', false)],
  [';', op(';', ';', ';', true, '', false)],
  ['?', op('?', '?', '&', true, '=', false)],
  ['&', op('&', '&', '&', true, '=', false)],
]);
const SIMPLE = op('', '', ',', false, '', false);
/** Operator characters the RFC reserves for future extensions. */
const RESERVED_OPERATORS = '=,!@|';

interface VarSpec {
  readonly name: string;
  readonly prefix: number | undefined;
  readonly explode: boolean;
}

interface Expression {
  readonly op: Operator;
  readonly vars: readonly VarSpec[];
}

/** A parsed template: literal text (already expansion-encoded) or an expression. */
type Part = { readonly literal: string; readonly encoded: string } | Expression;

const isExpression = (part: Part): part is Expression => 'op' in part;

const utf8 = new TextEncoder();
/** UTF-8 percent-encoding; lone surrogates become U+FFFD rather than throwing. */
const pctEncode = (ch: string): string =>
  Array.from(utf8.encode(ch), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

const NOT_UNRESERVED = /[^A-Za-z0-9\-._~]/gu;
const NOT_URI_CHAR = /%[0-9A-Fa-f]{2}|[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]/gu;

function encode(value: string, reserved: boolean): string {
  if (!reserved) return value.replace(NOT_UNRESERVED, pctEncode);
  // Existing pct-triplets are kept as they are (the only 3-char match).
  return value.replace(NOT_URI_CHAR, (m) => (m.length === 3 ? m : pctEncode(m)));
}

/** Decodes each run of pct-triplets that forms valid UTF-8; leaves the rest untouched (never throws). */
function decode(value: string): string {
  return value.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

const VARNAME_PART = /^(?:\w|%[0-9A-Fa-f]{2})+$/;
const PREFIX = /^[1-9][0-9]{0,3}$/;

function parse(template: string): Part[] {
  const parts: Part[] = [];
  const fail = (message: string, position: number): never => {
    throw new UriTemplateError(`Invalid URI template ${JSON.stringify(template)}: ${message} at position ${position}`);
  };
  let pos = 0;
  while (pos < template.length) {
    const open = template.indexOf('{', pos);
    const literal = template.slice(pos, open < 0 ? undefined : open);
    const stray = literal.indexOf('}');
    if (stray >= 0) fail("unmatched '}'", pos + stray);
    if (literal !== '') parts.push({ literal, encoded: encode(literal, true) });
    if (open < 0) break;
    const close = template.indexOf('}', open);
    const nested = template.indexOf('{', open + 1);
    if (close < 0 || (nested >= 0 && nested < close)) fail("unclosed '{'", open);
    parts.push(parseExpression(template.slice(open + 1, close), open + 1, fail));
    pos = close + 1;
  }
  return parts;
}

function parseExpression(body: string, start: number, fail: (message: string, position: number) => never): Expression {
  const c = body.charAt(0);
  if (c !== '' && RESERVED_OPERATORS.includes(c)) fail(`reserved operator '${c}'`, start);
  const op = OPERATORS.get(c) ?? SIMPLE;
  let offset = start + op.char.length;
  const vars = body.slice(op.char.length).split(',').map((spec): VarSpec => {
    const at = offset;
    offset += spec.length + 1;
    const explode = spec.endsWith('*');
    const colon = spec.indexOf(':');
    const name = explode ? spec.slice(0, -1) : colon >= 0 ? spec.slice(0, colon) : spec;
    if (!name.split('.').every((p) => VARNAME_PART.test(p))) fail(`invalid variable name ${JSON.stringify(name)}`, at);
    let prefix: number | undefined;
    if (!explode && colon >= 0) {
      const digits = spec.slice(colon + 1);
      if (!PREFIX.test(digits)) fail(`invalid prefix modifier ':${digits}' (expected 1-9999)`, at + colon);
      prefix = Number(digits);
    }
    return { name, prefix, explode };
  });
  return { op, vars };
}

function lookup(variables: Readonly<Record<string, UriVariableValue | undefined>>, name: string): UriVariableValue | undefined {
  // hasOwn: a variable called "constructor" must not pick up Object.prototype members.
  return Object.hasOwn(variables, name) ? variables[name] : undefined;
}

function expandExpression(e: Expression, variables: Readonly<Record<string, UriVariableValue | undefined>>): string {
  const { op } = e;
  const enc = (s: string): string => encode(s, op.reserved);
  const named = (name: string, value: string): string => (value === '' ? name + op.ifemp : `${name}=${value}`);
  const out: string[] = [];
  for (const spec of e.vars) {
    const value = lookup(variables, spec.name);
    if (value === undefined) continue;
    if (typeof value === 'string') {
      // Prefix lengths count Unicode code points, not UTF-16 units or bytes.
      const v = enc(spec.prefix === undefined ? value : Array.from(value).slice(0, spec.prefix).join(''));
      out.push(op.named ? named(spec.name, v) : v);
      continue;
    }
    if (spec.prefix !== undefined) {
      throw new UriTemplateError(`Prefix modifier on composite variable ${JSON.stringify(spec.name)}`);
    }
    const list = isList(value) ? value.map(enc) : undefined;
    const pairs = isList(value) ? [] : Object.entries(value).map(([k, v]) => [enc(k), enc(v)] as const);
    if (list?.length === 0 || (list === undefined && pairs.length === 0)) continue; // empty composite = undefined
    if (!spec.explode) {
      const joined = list ? list.join(',') : pairs.map(([k, v]) => `${k},${v}`).join(',');
      out.push(op.named ? named(spec.name, joined) : joined);
    } else if (list) {
      out.push(...list.map((v) => (op.named ? named(spec.name, v) : v)));
    } else {
      out.push(...pairs.map(([k, v]) => (op.named ? named(k, v) : `${k}=${v}`)));
    }
  }
  return out.length === 0 ? '' : op.first + out.join(op.sep);
}

// Array.isArray does not narrow readonly arrays out of a union.
const isList = (value: readonly string[] | Readonly<Record<string, string>>): value is readonly string[] => Array.isArray(value);

const escapeRegExp = (s: string): string => s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
const escapeClass = (chars: Iterable<string>): string => [...chars].map((c) => c.replace(/[\\\]^-]/, '\\$&')).join('');

/**
 * Builds the anchored matcher: one capture group per expression holding its raw
 * text, which `readExpression` then splits and decodes.
 *
 * Backtracking is kept polynomial: character classes are flat (no nested
 * quantifiers), and only the first expression whose class could also swallow
 * what follows it may backtrack. Later ambiguous expressions stop at the next
 * literal's first character, or (when there is none to exclude) match
 * possessively via the `(?=(x*))\1` idiom.
 */
function compile(parts: readonly Part[]): RegExp {
  let source = '^';
  let group = 0;
  let sawAmbiguous = false;
  parts.forEach((part, i) => {
    if (!isExpression(part)) {
      const { literal, encoded } = part;
      source += literal === encoded ? escapeRegExp(literal) : `(?:${escapeRegExp(literal)}|${escapeRegExp(encoded)})`;
      return;
    }
    const { op, vars } = part;
    group += 1;
    // Characters that later literals and operators need must not be swallowed by this expression.
    const later = new Set(parts.slice(i + 1).flatMap((p) => (isExpression(p) ? [p.op.first, p.op.sep] : [...p.literal])));
    const exclude = new Set<string>();
    if (op.reserved) {
      for (const c of '?#') if (later.has(c)) exclude.add(c);
    } else {
      // U-expansion encodes every reserved character but ',' (lists) and '=' (exploded maps). Raw
      // ones are tolerated (clients differ in what they escape) unless the template needs them
      // later; only query values may hold a raw '/' or '?'.
      const query = op.char === '?' || op.char === '&';
      const own = (op.sep === ',' ? ',' : '') + (vars.some((v) => v.explode) ? '=' : '');
      for (const c of query ? '#&' : op.char === ';' ? '/?#;' : '/?#') exclude.add(c);
      for (const c of ":/?#[]@!$&'()*+;=,") if (later.has(c) && !own.includes(c)) exclude.add(c);
    }
    // Without explode, at most one item per variable: bound the repetition by unrolling it.
    const bounded = !vars.some((v) => v.explode);
    if (!bounded) exclude.delete(op.sep); // one flat class spans all items and their separators
    const itemExclude = new Set(exclude);
    // A lone variable may hold the separator (a list joined by ',', or a label with dots).
    if (bounded && vars.length > 1) itemExclude.add(op.sep);

    const next = parts[i + 1];
    const follower = next === undefined ? undefined : isExpression(next) ? next.op.first || null : next.literal.charAt(0);
    let possessive = false;
    if (follower === null || (follower !== undefined && !itemExclude.has(follower))) {
      if (!sawAmbiguous) sawAmbiguous = true;
      else if (follower === null || (!bounded && follower === op.sep)) possessive = true;
      else {
        exclude.add(follower);
        itemExclude.add(follower);
      }
    }

    let pattern: string;
    if (!bounded) {
      pattern = `[^${escapeClass(exclude)}]*`;
    } else {
      const value = `[^${escapeClass(itemExclude)}]`;
      const names = vars.map((v) => escapeRegExp(v.name)).join('|');
      // ';' writes an empty value as a bare name, so "name=" would be a second, non-canonical reading.
      const item = op.named ? `(?:${names})(?:=${value}${op.ifemp === '' ? '+' : '*'})?` : `${value}*`;
      let rest = '';
      for (let j = 1; j < vars.length; j++) rest = `(?:${escapeRegExp(op.sep)}${item}${rest})?`;
      pattern = item + rest;
    }
    if (op.first !== '') pattern = `(?:${escapeRegExp(op.first)}${pattern})?`;
    source += possessive ? `(?=(${pattern}))\\${group}` : `(${pattern})`;
  });
  return new RegExp(`${source}$`);
}

/** Collects matched values, checking repeated variables agree. */
class Captures {
  readonly full = new Map<string, string | string[]>();
  readonly prefixes: [string, string][] = [];
  ok = true;

  set(spec: VarSpec, value: string | string[]): void {
    if (spec.prefix !== undefined && typeof value === 'string') {
      this.prefixes.push([spec.name, value]);
      return;
    }
    const prior = this.full.get(spec.name);
    if (prior !== undefined && String(prior) !== String(value)) this.ok = false;
    this.full.set(spec.name, value);
  }

  result(names: readonly string[]): Record<string, string | string[]> | undefined {
    for (const [name, value] of this.prefixes) {
      const whole = this.full.get(name);
      if (whole === undefined) this.full.set(name, value);
      else if (typeof whole !== 'string' || !whole.startsWith(value)) this.ok = false;
    }
    if (!this.ok) return undefined;
    // fromEntries defines own properties, so even "__proto__" is a plain key.
    return Object.fromEntries(names.flatMap((n) => {
      const v = this.full.get(n);
      return v === undefined ? [] : [[n, v]];
    }));
  }
}

function readExpression({ op, vars }: Expression, raw: string, out: Captures): void {
  if (op.first !== '' && raw === '') return; // every variable undefined
  const body = raw.slice(op.first.length);
  const single = vars.length === 1 && vars[0]?.explode === false;
  const items = single && !op.named ? [body] : body.split(op.sep);
  if (op.named) {
    const exploded = vars.filter((v) => v.explode);
    const seen = new Set<VarSpec>();
    const lists = new Map<VarSpec, string[]>();
    for (const item of items) {
      const eq = item.indexOf('=');
      const name = eq < 0 ? item : item.slice(0, eq);
      const value = decode(eq < 0 ? '' : item.slice(eq + 1));
      const spec = vars.find((v) => v.name === name && !seen.has(v)) ?? exploded.find((v) => v.name === name);
      if (spec === undefined) {
        // Unknown names are keys of an exploded associative array, which matching does not rebuild.
        if (exploded.length === 0) out.ok = false;
      } else if (spec.explode) {
        const list = lists.get(spec);
        if (list) list.push(value);
        else lists.set(spec, [value]);
      } else {
        seen.add(spec);
        out.set(spec, value);
      }
    }
    for (const [spec, list] of lists) out.set(spec, list);
    return;
  }
  let at = 0;
  vars.forEach((spec, j) => {
    const after = vars.length - j - 1;
    if (spec.explode) {
      const take = Math.max(0, items.length - at - after);
      if (take > 0 && raw !== '') out.set(spec, items.slice(at, at + take).map(decode));
      at += take;
    } else if (at < items.length) {
      // The last variable keeps any surplus items, so nothing matched is silently dropped.
      const take = after === 0 ? items.length - at : 1;
      out.set(spec, decode(items.slice(at, at + take).join(op.sep)));
      at += take;
    }
  });
}

export class UriTemplate {
  readonly template: string;
  readonly variableNames: readonly string[];
  readonly #parts: readonly Part[];
  #regExp: RegExp | undefined;

  constructor(template: string) {
    this.template = template;
    this.#parts = parse(template);
    const names = this.#parts.flatMap((p) => (isExpression(p) ? p.vars.map((v) => v.name) : []));
    this.variableNames = [...new Set(names)];
  }

  expand(variables: Readonly<Record<string, UriVariableValue | undefined>>): string {
    return this.#parts.map((p) => (isExpression(p) ? expandExpression(p, variables) : p.encoded)).join('');
  }

  /** Returns the variables if `uri` is an expansion of this template, else undefined. Values are percent-decoded. */
  match(uri: string): Record<string, string | string[]> | undefined {
    this.#regExp ??= compile(this.#parts);
    const m = this.#regExp.exec(uri);
    if (m === null) return undefined;
    const out = new Captures();
    this.#parts.filter(isExpression).forEach((e, i) => readExpression(e, m[i + 1] ?? '', out));
    return out.result(this.variableNames);
  }

  toString(): string {
    return this.template;
  }
}

/** True when `value` contains at least one `{expression}` (valid or not). */
export function isUriTemplate(value: string): boolean {
  return /\{[^{}]+\}/.test(value);
}
